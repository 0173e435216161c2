// Names in kv_offload's scratch directory (kernels/kv_offload/scratch_name.cpp), which any user of
// a shared directory can choose: the cleanup parses every name there. The parser must never
// throw or crash; what it accepts must name a pid in range and survive being written back.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "kernels/kv_offload/scratch_name.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view name(reinterpret_cast<const char*>(data), size);
    const auto parsed = memwall::parse_scratch_name(name);
    if (!parsed) return 0;
    if (parsed->pid <= 0 || parsed->host.empty()) std::abort();
    const auto again = memwall::parse_scratch_name(memwall::scratch_name(*parsed, 7));
    if (!again || again->host != parsed->host || again->pid != parsed->pid || again->ticks != parsed->ticks)
        std::abort();
    return 0;
}

// KTT JSON output files (tuner/ktt_json.cpp) and what replay asks of the recorded space.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/errors.hpp"
#include "tuner/recorded_space.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        auto rs = memwall::parse_ktt_json(std::string_view(reinterpret_cast<const char*>(data), size), "ktt.json");
        (void)rs.ok_count();
        (void)rs.optimum_seconds();
    } catch (const memwall::InputError&) {}
    return 0;
}

// Kernel Tuner cache files (tuner/kernel_tuner_cache.cpp), complete or left unterminated by an
// interrupted run, and what replay asks of the recorded space.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/errors.hpp"
#include "tuner/recorded_space.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        auto rs =
            memwall::parse_kernel_tuner_cache(std::string(reinterpret_cast<const char*>(data), size), "cache.json");
        (void)rs.ok_count();
        (void)rs.optimum_seconds();
    } catch (const memwall::InputError&) {}
    return 0;
}

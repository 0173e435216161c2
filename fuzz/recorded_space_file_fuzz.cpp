// Recorded spaces as `tune --replay` and `tune-eval` read them (tuner/recorded_space.cpp): a
// file, gunzipped when it is gzip, told apart as a Kernel Tuner cache or KTT JSON by content.
#include <cstddef>
#include <cstdint>

#include "core/errors.hpp"
#include "fuzz/temp_file.hpp"
#include "tuner/recorded_space.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const memwall::fuzz::TempFile file("space.json.gz");
    file.write(data, size);
    try {
        (void)memwall::load_recorded_space(file.path());
    } catch (const memwall::InputError&) {}
    return 0;
}

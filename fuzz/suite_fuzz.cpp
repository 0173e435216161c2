// Suite files (harness/suite.cpp), read from a file as `memwall ci --suite` reads them.
#include <cstddef>
#include <cstdint>

#include "core/errors.hpp"
#include "fuzz/temp_file.hpp"
#include "harness/suite.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const memwall::fuzz::TempFile file("suite.json");
    file.write(data, size);
    try {
        (void)memwall::load_suite(file.path());
    } catch (const memwall::InputError&) {}
    return 0;
}

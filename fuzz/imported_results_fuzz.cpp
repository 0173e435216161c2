// Results files of other harnesses for `memwall import` (results/import_gbench.cpp,
// results/import_nvbench.cpp): the same bytes read as each format, and an accepted run's cases
// must be timed only when they ran (ok, or unchecked as imports are), as the store expects.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/errors.hpp"
#include "results/import.hpp"
#include "results/store.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    for (memwall::ImportFormat format : {memwall::ImportFormat::gbench, memwall::ImportFormat::nvbench}) {
        try {
            const memwall::ImportedRun run = memwall::parse_import(format, text, "results.json");
            for (const memwall::CaseRecord& c : run.cases)
                if (!memwall::ran(c.status) && !c.samples.empty()) std::abort();
        } catch (const memwall::InputError&) {}
    }
    return 0;
}

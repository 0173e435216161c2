// Database files (results/): an image written to a file, opened read-only as `show`, `export`
// and the explorer open one, then read the ways they read it, exports included.
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "core/errors.hpp"
#include "fuzz/temp_file.hpp"
#include "results/export.hpp"
#include "results/store.hpp"
#include "results/tuning_store.hpp"

using namespace memwall;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const fuzz::TempFile file("image.db");
    file.write(data, size);
    try {
        const Store store = Store::open(file.path(), Store::Mode::read_only);
        (void)store.latest_run();
        (void)store.runs_tagged("branch", "main");
        for (const RunInfo& run : store.runs()) {
            (void)store.run(run.id);
            (void)store.run_properties(run.id);
            (void)store.ceilings(run.id);
            (void)store.latest_measured_ceilings_run(run.host, run.backend, true);
            (void)store.case_count(run.id);
            (void)store.cases(run.id);
            (void)store.case_page(run.id, 0, 4);
            (void)store.run_samples(run.id);
            (void)store.run_counters(run.id);
            for (ExportFormat f : {ExportFormat::json, ExportFormat::csv, ExportFormat::gbench}) {
                std::ostringstream out;
                export_run(store, run.id, f, out, {});
            }
        }
        for (const auto& session : tuning_sessions(store)) {
            (void)tuning_session(store, session.info.id);
            (void)trials(store, session.info.id);
        }
    } catch (const InputError&) {
    } catch (const EnvironmentError&) {  // SQLite's "damaged file" is reported as the machine's
    }
    return 0;
}

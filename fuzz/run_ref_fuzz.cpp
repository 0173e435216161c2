// Run references as commands take them ("latest", an id, a tag key=value; cli/run_ref.cpp),
// resolved against a small database of tagged runs.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/run_ref.hpp"
#include "core/errors.hpp"
#include "fuzz/temp_file.hpp"
#include "results/store.hpp"

using namespace memwall;

namespace {

Store make_store(const std::string& path) {
    Store store = Store::open(path, Store::Mode::create);
    for (int i = 0; i < 3; ++i) {
        RunInfo info;
        info.host = "fuzz";
        info.backend = "cpu";
        info.tags = {{"branch", i == 2 ? "main" : "topic"}, {"k=v", "x=y"}, {"", "empty key"}};
        const auto id = store.begin_run(info);
        if (i != 1) store.finish_run(id, RunStatus::complete);
    }
    return store;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const fuzz::TempFile file("runs.db");
    static const Store store = make_store(file.path());
    try {
        (void)cli::resolve_run(store, std::string(reinterpret_cast<const char*>(data), size));
    } catch (const UsageError&) {}
    return 0;
}

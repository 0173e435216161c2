#include <iostream>

#include "cli/app.hpp"
#include "cli/ceilings_source.hpp"
#include "cli/table.hpp"
#include "core/machine.hpp"

namespace memwall::cli {

void add_ceilings_command(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand("ceilings", "measure this machine's roofline ceilings (bandwidth per cache level and "
                                               "DRAM, FP32 FMA peak), print them and store them as a run");
    auto no_store = std::make_shared<bool>(false);
    cmd->add_flag("--no-store", *no_store, "print only; leave the database alone");
    cmd->callback([&ctx, no_store] {
        // Open first, so a bad --db fails before a measurement is wasted.
        std::optional<Store> store;
        if (!*no_store) store = Store::open(ctx.db_path, Store::Mode::create);
        const MemoryHierarchy mh = detect_memory_hierarchy();
        const CeilingMeasurement m = measure_ceilings_now(mh, true);
        const Ceilings& c = m.ceilings;
        std::cout << "Ceilings of " << host_name() << " (" << cpu_description() << ")\n\n";
        print_ceilings(std::cout, c);
        for (const auto& level : m.not_found) std::cout << "not found: " << level << '\n';
        if (store) {
            RunInfo info;
            info.host = host_name();
            info.backend = "cpu";
            info.device = cpu_description();
            info.git_revision = memwall_git_revision();
            info.command_line = ctx.command_line;
            info.memwall_version = memwall_version();
            const std::int64_t id = store->begin_run(info);
            store->save_ceilings(id, c);
            store->finish_run(id, RunStatus::complete);
            std::cout << "\nstored as run " << id << " in " << ctx.db_path << '\n';
        }
    });
}

}  // namespace memwall::cli

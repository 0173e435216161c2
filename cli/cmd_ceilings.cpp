#include <iostream>

#include "cli/app.hpp"
#include "cli/table.hpp"
#include "core/machine.hpp"
#include "harness/run_session.hpp"

namespace memwall::cli {

void add_ceilings_command(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand("ceilings",
                                   "measure this machine's roofline ceilings (bandwidth per cache level and "
                                   "DRAM, FP32 FMA peak), print them and store them as a run");
    auto no_store = std::make_shared<bool>(false);
    cmd->add_flag("--no-store", *no_store, "print only; leave the database alone");
    cmd->callback([&ctx, no_store] {
        // Open first, so a bad --db fails before a measurement is wasted.
        std::optional<Store> store;
        if (!*no_store) store = Store::open(ctx.db_path, Store::Mode::create);
        const CeilingMeasurement m = measure_ceilings_now(detect_memory_hierarchy(), true);
        std::cout << "Ceilings of " << host_name() << " (" << cpu_description() << ")\n\n";
        print_ceilings(std::cout, m.ceilings);
        for (const auto& level : m.not_found) std::cout << "not found: " << level << '\n';
        if (store) {
            // A run of no cases and no sweep (so `run --resume` refuses it): the CPU's ceilings.
            const SweepSpec cpu_only;
            RunInfo info = run_info(cpu_only, {}, Provenance::here(ctx.command_line), {});
            info.sweep.clear();
            RunSession run = RunSession::begin(*store, info, cpu_only.backends, {.given_ceilings = m.ceilings});
            run.finish(RunStatus::complete);
            std::cout << "\nstored as run " << run.id() << " in " << ctx.db_path << '\n';
        }
    });
}

}  // namespace memwall::cli

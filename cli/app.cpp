#include "cli/app.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "cli/isa_option.hpp"
#include "core/cpu_quota.hpp"
#include "core/errors.hpp"
#include "core/machine.hpp"

namespace memwall::cli {

#ifndef MEMWALL_HAVE_QT
void add_plot_command(CLI::App& app, Context&) {
    auto* cmd = app.add_subcommand("plot", "render a chart to PNG or SVG (unavailable: built without Qt 6)");
    cmd->allow_extras()->fallthrough(false);  // every argument is the stub's, so it can say why
    cmd->callback([] {
        throw UsageError(
            "plot is unavailable: this memwall was built without Qt 6 (install qt6-base-dev and "
            "qt6-svg-dev, then reconfigure)");
    });
}
#endif

void add_commands(CLI::App& app, Context& ctx) {
    add_list_command(app, ctx);
    add_run_command(app, ctx);
    add_show_command(app, ctx);
    add_export_command(app, ctx);
    add_import_command(app, ctx);
    add_ceilings_command(app, ctx);
    add_compare_command(app, ctx);
    add_history_command(app, ctx);
    add_merge_command(app, ctx);
    add_slurm_command(app, ctx);
    add_ci_command(app, ctx);
    add_tune_commands(app, ctx);
    add_worker_command(app, ctx);
    add_metrics_command(app, ctx);
    add_plot_command(app, ctx);
}

std::string command_names(const CLI::App& app) {
    std::string names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
        names += (names.empty() ? "" : ", ") + sub->get_name();
    return names;
}

}  // namespace memwall::cli

namespace memwall {

int run_cli(int argc, char** argv, const std::function<void(Catalogue&)>& register_kernels) {
    using namespace cli;
    Context ctx;
    // Kernels and ceilings use the CPUs the container grants, not every CPU it shows.
    fit_threads_to_cpu_quota();
    if (const auto cap = cap_requested_threads())
        std::fprintf(
            stderr,
            "memwall: OMP_NUM_THREADS asks for %d threads; capped at %d, %d per CPU of the %d this process may use\n",
            cap->asked, cap->cap, kMaxThreadsPerCpu, usable_cpus());

    // Google Benchmark's own flags go to it untouched; the rest to CLI11.
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a.rfind("--benchmark_", 0) == 0) {
            ctx.gbench_args.push_back(a);
        } else {
            args.push_back(a);
        }
        ctx.command_line += (i > 1 ? " " : "") + a;
    }
    ctx.command_line = "memwall " + ctx.command_line;

    CLI::App app{"memwall: profiling and autotuning benchmarks for memory-bound kernels"};
    app.set_version_flag("--version", memwall_version());
    app.require_subcommand(1);
    app.fallthrough();
    const char* env_db = std::getenv("MEMWALL_DB");
    ctx.db_path = env_db && *env_db ? env_db : "memwall.db";
    app.add_option("--db", ctx.db_path, "results database (default: $MEMWALL_DB or ./memwall.db)");

    add_commands(app, ctx);

    try {
        // Before the kernels register: their default tiles follow the ISA.
        if (const auto isa = isa_from_arguments(args)) set_active_isa(*isa);
        register_kernels(ctx.catalogue);
        std::reverse(args.begin(), args.end());  // CLI11 takes its arguments reversed
        app.parse(args);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        if (app.get_subcommands().empty() && !app.remaining().empty()) {
            std::fprintf(stderr, "memwall: error: unknown command '%s' (commands: %s)\n",
                         app.remaining().front().c_str(), command_names(app).c_str());
        } else {
            std::fprintf(stderr, "memwall: error: %s (see memwall --help)\n", e.what());
        }
        return 2;
    } catch (const UsageError& e) {
        std::fprintf(stderr, "memwall: error: %s\n", e.what());
        return 2;
    } catch (const InputError& e) {
        std::fprintf(stderr, "memwall: error: %s\n", e.what());
        return 2;
    } catch (const EnvironmentError& e) {
        std::fprintf(stderr, "memwall: error: %s\n", e.what());
        return 2;
    } catch (const Interrupted& e) {  // what was complete is stored; the command says where, if anywhere
        std::fprintf(stderr, "memwall: %s\n", e.what());
        return 130;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "memwall: internal error: %s\n", e.what());
        return 3;
    }
    return ctx.exit_status;
}

}  // namespace memwall

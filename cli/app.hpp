// The `memwall` command line.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/run_cli.hpp"
#include "core/catalogue.hpp"

namespace memwall::cli {

// What every command sees.
struct Context {
    Catalogue catalogue;
    std::string db_path;                   // --db, $MEMWALL_DB, or ./memwall.db
    std::vector<std::string> gbench_args;  // --benchmark_* flags, passed to Google Benchmark
    std::string command_line;              // as typed, recorded with runs
    int exit_status = 0;                   // set by a command that finishes without throwing
};

// Each command adds its subcommand and callback.
void add_list_command(CLI::App& app, Context& ctx);
void add_run_command(CLI::App& app, Context& ctx);
void add_show_command(CLI::App& app, Context& ctx);
void add_export_command(CLI::App& app, Context& ctx);
void add_import_command(CLI::App& app, Context& ctx);
void add_ceilings_command(CLI::App& app, Context& ctx);
void add_compare_command(CLI::App& app, Context& ctx);
void add_history_command(CLI::App& app, Context& ctx);
void add_merge_command(CLI::App& app, Context& ctx);
void add_slurm_command(CLI::App& app, Context& ctx);
void add_ci_command(CLI::App& app, Context& ctx);
void add_tune_commands(CLI::App& app, Context& ctx);   // tune, tune-eval
void add_worker_command(CLI::App& app, Context& ctx);  // measure-worker (ci --baseline-build), case-worker
void add_metrics_command(CLI::App& app, Context& ctx);
// Built with Qt 6: renders charts; without: says so and exits 2.
void add_plot_command(CLI::App& app, Context& ctx);

// Every command above, in --help's order: the one list of commands, which run_cli, its messages
// and the README's check read.
void add_commands(CLI::App& app, Context& ctx);
// The commands a user types (the hidden worker commands left out), in --help's order: "list, run, ...".
std::string command_names(const CLI::App& app);

}  // namespace memwall::cli

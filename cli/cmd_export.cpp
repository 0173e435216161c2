#include <iostream>

#include "cli/app.hpp"
#include "cli/run_ref.hpp"
#include "core/errors.hpp"
#include "core/machine.hpp"
#include "core/output_file.hpp"
#include "results/export.hpp"

namespace memwall::cli {

void add_export_command(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand("export",
                                   "write a run as JSON, CSV, Google Benchmark JSON (for compare.py) or Bencher "
                                   "Metric Format, or a tuning session as T4 autotuning results");
    auto run = std::make_shared<std::string>("latest");
    auto format = std::make_shared<std::string>("json");
    auto out = std::make_shared<std::string>();
    auto session = std::make_shared<std::int64_t>(0);
    cmd->add_option("run", *run, "run id, 'latest' or a tag key=value (default: latest)");
    cmd->add_option("--format", *format, "json, csv, gbench or bmf for a run; t4 for a tuning session")
        ->check(CLI::IsMember({"json", "csv", "gbench", "bmf", "t4"}));
    cmd->add_option("--tuning", *session, "the tuning session to write (its id, as show --tuning lists them)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--out,-o", *out, "file to write (default: standard output)");
    cmd->callback([&ctx, run, format, out, session] {
        if ((*format == "t4") != (*session > 0))
            throw UsageError(
                "export: --format t4 writes a tuning session and needs --tuning ID; a run has the other formats");
        if (!out->empty()) refuse_overwriting(*out, Store::files(ctx.db_path), "the database " + ctx.db_path);
        const Store store = Store::open(ctx.db_path, Store::Mode::read_only);
        const std::int64_t id = *session > 0 ? 0 : resolve_run_with_cases(store, *run);
        const auto write = [&](std::ostream& os) {
            if (*session > 0)
                export_tuning_session_t4(store, *session, os);
            else
                export_run(store, id, *export_format_from(*format), os,
                           ExportOptions{.memwall_version = memwall_version()});
        };
        if (out->empty()) {
            write(std::cout);
            if (!std::cout) throw EnvironmentError("standard output: writing the export failed");
            return;
        }
        OutputFile file(*out);
        write(file.stream());
        file.commit();
    });
}

}  // namespace memwall::cli

#include <iostream>

#include "cli/app.hpp"
#include "cli/run_ref.hpp"
#include "core/errors.hpp"
#include "core/machine.hpp"
#include "core/output_file.hpp"
#include "results/export.hpp"

namespace memwall::cli {

void add_export_command(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand("export", "write a run as JSON, CSV, Google Benchmark JSON (for compare.py) or Bencher Metric Format");
    auto run = std::make_shared<std::string>("latest");
    auto format = std::make_shared<std::string>("json");
    auto out = std::make_shared<std::string>();
    cmd->add_option("run", *run, "run id, 'latest' or a tag key=value (default: latest)");
    cmd->add_option("--format", *format, "json, csv, gbench or bmf")->check(CLI::IsMember({"json", "csv", "gbench", "bmf"}));
    cmd->add_option("--out,-o", *out, "file to write (default: standard output)");
    cmd->callback([&ctx, run, format, out] {
        if (!out->empty()) refuse_overwriting(*out, Store::files(ctx.db_path), "the database " + ctx.db_path);
        const Store store = Store::open(ctx.db_path, Store::Mode::read_only);
        const std::int64_t id = resolve_run_with_cases(store, *run);
        const ExportOptions options{.memwall_version = memwall_version()};
        if (out->empty()) {
            export_run(store, id, *export_format_from(*format), std::cout, options);
            if (!std::cout) throw EnvironmentError("standard output: writing the export failed");
            return;
        }
        OutputFile file(*out);
        export_run(store, id, *export_format_from(*format), file.stream(), options);
        file.commit();
    });
}

}  // namespace memwall::cli

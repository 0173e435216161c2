#include <fstream>
#include <iostream>

#include "cli/app.hpp"
#include "cli/run_ref.hpp"
#include "core/errors.hpp"
#include "core/machine.hpp"
#include "results/export.hpp"

namespace memwall::cli {

void add_export_command(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand("export", "write a run as JSON, CSV, or Google Benchmark JSON (for compare.py)");
    auto run = std::make_shared<std::string>("latest");
    auto format = std::make_shared<std::string>("json");
    auto out = std::make_shared<std::string>();
    cmd->add_option("run", *run, "run id, 'latest' or a tag key=value (default: latest)");
    cmd->add_option("--format", *format, "json, csv or gbench")->check(CLI::IsMember({"json", "csv", "gbench"}));
    cmd->add_option("--out,-o", *out, "file to write (default: standard output)");
    cmd->callback([&ctx, run, format, out] {
        const Store store = Store::open(ctx.db_path, Store::Mode::read_only);
        const std::int64_t id = resolve_run(store, *run);
        std::ofstream file;
        if (!out->empty()) {
            file.open(*out);
            if (!file) throw UsageError("cannot write " + *out);
        }
        std::ostream& os = out->empty() ? std::cout : file;
        export_run(store, id, *export_format_from(*format), os, {.memwall_version = memwall_version()});
        if (!os) throw InputError("writing the export failed");
    });
}

}  // namespace memwall::cli

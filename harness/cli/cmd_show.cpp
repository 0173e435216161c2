#include <iostream>

#include "harness/cli/app.hpp"
#include "harness/cli/run_ref.hpp"
#include "harness/cli/table.hpp"
#include "harness/errors.hpp"

namespace memwall::cli {

void add_show_command(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand("show", "list the runs, or show one run: its machine, ceilings and cases");
    auto run = std::make_shared<std::string>();
    auto status = std::make_shared<std::string>();
    cmd->add_option("run", *run, "run id, 'latest', or a tag key=value (default: list the runs)");
    cmd->add_option("--status", *status, "only cases with this status")
        ->check(CLI::IsMember({"ok", "wrong_result", "failed", "timeout", "skipped"}));
    cmd->callback([&ctx, run, status] {
        const Store store = Store::open(ctx.db_path, Store::Mode::read_only);
        if (run->empty()) {
            print_runs(std::cout, store);
            return;
        }
        const std::int64_t id = resolve_run(store, *run);
        const RunInfo r = *store.run(id);
        std::cout << "run " << r.id << "  " << to_string(r.status) << "\n"
                  << "  started   " << r.started_at << (r.finished_at.empty() ? "" : ", finished " + r.finished_at) << "\n"
                  << "  host      " << r.host << "\n"
                  << "  device    " << r.device << "\n"
                  << "  backend   " << r.backend << "\n"
                  << "  memwall   " << r.memwall_version << (r.git_revision.empty() ? "" : " (" + r.git_revision + ")") << "\n"
                  << "  command   " << r.command_line << "\n";
        for (const auto& [k, v] : r.tags) std::cout << "  tag       " << k << "=" << v << "\n";
        const Ceilings c = store.ceilings(id);
        std::cout << "\n";
        if (c.empty()) {
            std::cout << "no ceilings stored: roofline columns stay empty\n\n";
        } else {
            print_ceilings(std::cout, c);
            std::cout << "\n";
        }
        auto cases = store.cases(id, false);
        if (!status->empty()) {
            std::erase_if(cases, [&](const CaseRecord& x) { return to_string(x.status) != *status; });
        }
        if (cases.empty()) {
            std::cout << "no cases\n";
            return;
        }
        print_cases(std::cout, cases, c);
    });
}

}  // namespace memwall::cli

#include <algorithm>
#include <iostream>
#include <stdexcept>

#include "cli/app.hpp"
#include "cli/run_ref.hpp"
#include "cli/table.hpp"
#include "cli/tuning_output.hpp"
#include "harness/device_description.hpp"
#include "core/errors.hpp"
#include "results/report.hpp"
#include "results/tuning_store.hpp"

namespace memwall::cli {

namespace {

// show --tuning: the stored tuning sessions with their best, or one session's trials.
void show_tuning(const Store& store, const std::string& session) {
    if (store.schema_version() < 2) {  // opened read-only, so not migrated: it predates tuning
        std::cout << "no tuning sessions (the database predates them)\n";
        return;
    }
    if (session.empty()) {
        print_tuning_sessions(std::cout, tuning_sessions(store));
        return;
    }
    std::int64_t id = 0;
    try {
        std::size_t end = 0;
        id = std::stoll(session, &end);
        if (end != session.size()) throw std::invalid_argument(session);
    } catch (const std::exception&) {
        throw UsageError("show --tuning takes a session id, got '" + session + "'");
    }
    const auto s = tuning_session(store, id);
    if (!s) throw UsageError("no tuning session " + session + " in " + store.path());
    const TuningSessionInfo& i = s->info;
    std::cout << "tuning session " << i.id << "  " << to_string(i.status)
              << (i.stop_reason.empty() ? "" : ", stopped by " + i.stop_reason) << "\n"
              << "  started   " << i.started_at << (i.finished_at.empty() ? "" : ", finished " + i.finished_at) << "\n"
              << "  kernel    " << session_kernel(i) << "\n"
              << "  device    " << i.device << "\n"
              << "  problem   " << params_label(i.problem) << "\n"
              << "  strategy  " << i.strategy << ", seed " << i.seed << "\n"
              << "  command   " << i.command_line << "\n";
    if (!i.source_file.empty()) std::cout << "  recording " << i.source_file << "\n";
    if (!i.anchor.empty()) {
        std::cout << "  anchor    " << params_label(i.anchor);
        if (i.anchor_seconds) std::cout << ", " << format_duration(*i.anchor_seconds) << " alone";
        std::cout << ": every configuration timed beside it\n";
    }
    const auto rows = trials(store, id);
    std::cout << "\n";
    print_trials(std::cout, *s, rows);
    std::cout << "\n";
    print_best(std::cout, *s, rows);
}

}  // namespace

void add_show_command(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand("show",
                                   "list the runs, or show one run: its machine, ceilings and cases; "
                                   "--tuning: the tuning sessions, or one session's trials");
    auto run = std::make_shared<std::string>();
    auto status = std::make_shared<std::string>();
    auto tuning = std::make_shared<bool>(false);
    auto levels = std::make_shared<bool>(false);
    cmd->add_option("run", *run,
                    "run id, 'latest', or a tag key=value (default: list the runs); with --tuning, "
                    "a tuning session id");
    cmd->add_flag("--tuning", *tuning, "list the tuning sessions with their best configuration");
    cmd->add_flag("--levels", *levels,
                  "each case's hierarchical roofline: its bytes, GB/s and intensity at every memory level, from "
                  "measured counters where present (the model's beside them) and the model otherwise");
    cmd->add_option("--status", *status, "only cases with this status")
        ->check(CLI::IsMember({"ok", "unchecked", "wrong_result", "failed", "timeout", "skipped"}));
    cmd->callback([&ctx, run, status, tuning, levels] {
        const Store store = Store::open(ctx.db_path, Store::Mode::read_only);
        if (*tuning) {
            if (!status->empty()) throw UsageError("--status filters a run's cases, not tuning sessions");
            show_tuning(store, *run);
            return;
        }
        if (*levels && run->empty()) throw UsageError("--levels shows the cases of a run: name one (e.g. latest)");
        if (run->empty()) {
            print_runs(std::cout, store);
            return;
        }
        const std::int64_t id = resolve_run(store, *run);
        const RunInfo r = *store.run(id);
        std::cout << "run " << r.id << "  " << to_string(r.status) << "\n"
                  << "  started   " << r.started_at << (r.finished_at.empty() ? "" : ", finished " + r.finished_at)
                  << "\n"
                  << "  host      " << r.host << "\n"
                  << "  device    " << r.device << "\n"
                  << "  backend   " << r.backend << "\n"
                  << "  memwall   " << r.memwall_version << (r.git_revision.empty() ? "" : " (" + r.git_revision + ")")
                  << "\n"
                  << "  command   " << r.command_line << "\n";
        for (const auto& [k, v] : r.tags) std::cout << "  tag       " << k << "=" << v << "\n";
        const auto devices = device_summaries(store.run_properties(id));
        if (!devices.empty()) std::cout << "\ndevice\n";
        for (const auto& [backend, summary] : devices)
            std::cout << "  " << backend << std::string(10 - std::min<std::size_t>(backend.size(), 9), ' ') << summary
                      << "\n";
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
        if (*levels) {
            std::cout << "\n";
            print_levels(std::cout, cases, c);
        }
    });
}

}  // namespace memwall::cli

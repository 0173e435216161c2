#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "cli/compare_output.hpp"
#include "core/errors.hpp"
#include "harness/gbench.hpp"
#include "harness/interrupt.hpp"
#include "harness/progress.hpp"
#include "harness/run_session.hpp"
#include "harness/suite.hpp"
#include "harness/worker.hpp"

namespace memwall::cli {

namespace {

struct CiArgs {
    std::string suite, baseline, baseline_build, report_dir, ceilings = "reuse";
    std::vector<std::string> tags;
    std::optional<double> threshold, alpha;
    bool update_baseline = false, cross_device = false, quiet = false;
};

// "main" is the tag baseline=main; "key=value" is that tag.
std::pair<std::string, std::string> baseline_tag(const std::string& b) {
    const auto eq = b.find('=');
    if (b.empty() || eq == 0) throw UsageError("--baseline '" + b + "': expected NAME or key=value");
    if (eq == std::string::npos) return {"baseline", b};
    return {b.substr(0, eq), b.substr(eq + 1)};
}

// The newest run carrying the tag, loaded before the suite runs so that a missing baseline
// costs nothing and touches no file.
std::optional<LoadedRun> find_baseline(const std::string& db, const std::pair<std::string, std::string>& tag,
                                       bool update) {
    const std::string tag_text = tag.first + "=" + tag.second;
    std::error_code ec;
    if (!std::filesystem::exists(db, ec)) {
        if (update) return std::nullopt;
        throw UsageError("no baseline: " + db + " does not exist (record one with --update-baseline)");
    }
    const Store store = Store::open(db, Store::Mode::read_only);
    const auto ids = store.runs_tagged(tag.first, tag.second);
    if (ids.empty()) {
        if (update) return std::nullopt;
        throw UsageError("no baseline: no run tagged " + tag_text + " in " + db +
                         " (record one with --update-baseline)");
    }
    return load_run(store, ids.back());
}

GbenchFlags suite_gbench_flags(const Suite& suite) {
    return gbench_flags({"--benchmark_repetitions=" + std::to_string(suite.repetitions),
                         std::string("--benchmark_enable_random_interleaving=") + (suite.interleave ? "true" : "false")});
}

// Prints the comparison, writes the reports, and returns whether it found a regression.
bool report(Comparison& c, const CiArgs& a) {
    if (!a.report_dir.empty()) write_reports(c, a.report_dir);
    print_warnings(c);
    write_comparison(std::cout, c, "console");
    return c.regression();
}

// --baseline-build: the baseline build and this one, each in a worker process, measured side by
// side (measure_together), stored as two runs, the candidate tagged paired_with the baseline's.
void ci_together(const CiArgs& a, const Suite& suite, RunInfo info, Context& ctx) {
    if (::access(a.baseline_build.c_str(), X_OK) != 0)
        throw UsageError("--baseline-build " + a.baseline_build + ": not an executable file");
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    auto worker = [&](const std::string& exe) {
        return std::make_unique<WorkerArm>(start_worker({exe, "measure-worker", "--suite", a.suite}));
    };
    const auto base = worker(a.baseline_build);
    const auto cand = worker(self);

    // Cases of both builds, matched by key; the others cannot be paired and are named.
    std::map<CaseKey, std::size_t> in_base;
    for (std::size_t i = 0; i < base->worker_cases().size(); ++i) in_base[base->worker_cases()[i]] = i;
    std::vector<std::size_t> order_b, order_c;
    for (std::size_t i = 0; i < cand->worker_cases().size(); ++i) {
        const auto it = in_base.find(cand->worker_cases()[i]);
        if (it == in_base.end()) continue;
        order_b.push_back(it->second);
        order_c.push_back(i);
    }
    const std::size_t only_cand = cand->worker_cases().size() - order_c.size();
    const std::size_t only_base = base->worker_cases().size() - order_b.size();
    if (order_c.empty())
        throw UsageError("the baseline build and this one have no case of suite " + suite.name + " in common");
    base->set_order(order_b);
    cand->set_order(order_c);

    Store store = Store::open(ctx.db_path, Store::Mode::create);
    RunInfo base_info = info;
    base_info.tags = {{"suite", suite.name}, {"build", a.baseline_build}};
    base_info.git_revision = base->git_revision();
    base_info.memwall_version = base->version();
    const SessionOptions options{.ceilings = ceilings_mode_from(a.ceilings), .progress = !a.quiet};
    RunSession base_run = RunSession::begin(store, base_info, suite.sweep.backends, options);
    info.tags["paired_with"] = std::to_string(base_run.id());
    RunSession cand_run = RunSession::begin(
        store, info, suite.sweep.backends,
        {.ceilings = options.ceilings, .given_ceilings = base_run.ceilings(), .progress = options.progress});
    const std::int64_t base_id = base_run.id(), cand_id = cand_run.id();

    const InterruptScope interrupts;
    TogetherPlan plan{order_c.size(), suite.repetitions, suite.interleave, suite.sweep.sampler, suite.sweep.seed};
    Progress progress(order_c.size() * static_cast<std::size_t>(suite.repetitions), !a.quiet);
    TogetherRuns t;
    try {
        progress.begin("both builds");
        const auto next = [&](std::size_t, std::size_t) {
            progress.end();
            progress.begin("both builds");
        };
        t = measure_together(*base, *cand, plan, next, &stop_requested);
        progress.finish();
    } catch (...) {
        for (RunSession* run : {&base_run, &cand_run}) run->finish(RunStatus::interrupted);
        throw;
    }
    std::size_t not_ok = 0;
    for (auto [run, records] : {std::pair{&base_run, &t.base}, std::pair{&cand_run, &t.candidate}}) {
        for (CaseRecord& c : *records) {
            if (c.key.family.empty()) continue;  // not reached before an interruption
            if (run == &cand_run && c.status != CaseStatus::ok) ++not_ok;
            run->save(std::move(c));
        }
        run->finish(t.interrupted ? RunStatus::interrupted : RunStatus::complete);
    }
    if (t.interrupted) {
        std::cerr << "memwall: interrupted; runs " << base_id << " and " << cand_id
                  << " are incomplete and were not compared\n";
        ctx.exit_status = 130;
        return;
    }
    std::cout << "suite " << suite.name << ": runs " << base_id << " (" << a.baseline_build << ") and " << cand_id
              << " (this build) in " << ctx.db_path << ", measured together, " << order_c.size() << " cases\n\n";
    Comparison c = compare_runs(load_run(store, base_id), load_run(store, cand_id), suite.compare);
    if (only_cand || only_base)
        c.warnings.push_back(std::to_string(only_cand) + " case(s) only in this build and " +
                             std::to_string(only_base) + " only in the baseline build were not measured");
    const bool regression = report(c, a);
    if (not_ok) std::cerr << "memwall: " << not_ok << " case(s) did not pass (see memwall show " << cand_id << ")\n";
    ctx.exit_status = regression || not_ok ? 1 : 0;
}

void ci_command(const CiArgs& a, Context& ctx) {
    if (!ctx.gbench_args.empty())
        throw UsageError("memwall ci takes its settings from the suite file, not " + ctx.gbench_args.front());
    Suite suite = load_suite(a.suite);
    if (a.threshold) suite.compare.threshold = *a.threshold;
    if (a.alpha) suite.compare.alpha = *a.alpha;
    suite.compare.cross_device = a.cross_device;
    suite.compare.validate();
    std::map<std::string, std::string> tags = parse_tags(a.tags);
    tags["suite"] = suite.name;
    const std::vector<PlannedCase> cases = expand_sweep(suite.sweep, ctx.catalogue);
    RunInfo info = run_info(suite.sweep, cases, Provenance::here(ctx.command_line), std::move(tags));
    if (a.baseline.empty() == a.baseline_build.empty())
        throw UsageError("give one baseline: --baseline TAG (a stored run) or --baseline-build PATH (measured beside "
                         "this build)");
    if (!a.baseline_build.empty()) {
        if (a.update_baseline) throw UsageError("--update-baseline records a stored baseline, not a --baseline-build");
        if (a.cross_device) throw UsageError("--cross-device: both builds run on this device with --baseline-build");
        ci_together(a, suite, info, ctx);
        return;
    }
    const auto tag = baseline_tag(a.baseline);
    const std::optional<LoadedRun> baseline = find_baseline(ctx.db_path, tag, a.update_baseline);

    init_google_benchmark(suite_gbench_flags(suite));
    Store store = Store::open(ctx.db_path, Store::Mode::create);
    RunSession session = RunSession::begin(store, info, suite.sweep.backends,
                                           {.ceilings = ceilings_mode_from(a.ceilings), .progress = !a.quiet});
    const std::int64_t run_id = session.id();

    const InterruptScope interrupts;
    RunnerOptions opt;
    opt.measure.sampler = suite.sweep.sampler;
    opt.seed = suite.sweep.seed;
    opt.repetitions = suite.repetitions;
    opt.progress = !a.quiet;
    QuietReporter quiet;
    const RunnerResult r = session.measure(cases, opt, &quiet);
    session.finish(r.interrupted ? RunStatus::interrupted : RunStatus::complete);
    if (r.interrupted) {
        std::cerr << "memwall: interrupted; run " << run_id << " is incomplete and was not compared\n";
        ctx.exit_status = 130;
        return;
    }
    std::cout << "suite " << suite.name << ": run " << run_id << " in " << ctx.db_path << ", " << r.measured
              << " cases measured\n\n";

    bool regression = false;
    if (baseline) {
        Comparison c = compare_runs(*baseline, load_run(store, run_id), suite.compare);
        const auto it = baseline->info.tags.find("suite");
        if (it != baseline->info.tags.end() && it->second != suite.name)
            c.warnings.push_back("the baseline was measured with suite " + it->second + ", not " + suite.name);
        regression = report(c, a);
    } else {
        std::cout << "no earlier run tagged " << tag.first << "=" << tag.second << ": nothing to compare with\n";
    }
    if (a.update_baseline) {
        store.set_tag(run_id, tag.first, tag.second);
        std::cout << "run " << run_id << " is now the baseline " << tag.first << "=" << tag.second << "\n";
    }
    if (r.not_ok) std::cerr << "memwall: " << r.not_ok << " case(s) did not pass (see memwall show " << run_id << ")\n";
    ctx.exit_status = regression || r.not_ok ? 1 : 0;
}

}  // namespace

void add_ci_command(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand("ci",
                                   "run a suite, compare it with the newest baseline run (or a baseline build "
                                   "measured beside it) and write reports; exit status 1 on a regression or a "
                                   "failing case");
    auto a = std::make_shared<CiArgs>();
    cmd->add_option("--suite", a->suite, "the suite file (e.g. suites/attention-cpu.json)")->required();
    cmd->add_option("--baseline", a->baseline, "the stored baseline's tag: NAME (tag baseline=NAME) or key=value");
    cmd->add_option("--baseline-build", a->baseline_build,
                    "instead of a stored run: the baseline's memwall executable, measured beside this build (both "
                    "in worker processes, samples alternating), compared pair by pair");
    cmd->add_flag("--update-baseline", a->update_baseline,
                  "tag this run as the baseline afterwards (a missing baseline is then not an error)");
    cmd->add_option("--report-dir", a->report_dir, "write report.md, report.json and report.junit.xml here");
    cmd->add_option("--tag", a->tags, "tag the run: key=value (e.g. branch=main, commit=abc123); repeatable");
    cmd->add_option("--threshold", a->threshold, "minimum change that counts (default: the suite's, else 0.05)");
    cmd->add_option("--alpha", a->alpha, "significance level (default: the suite's, else 0.05)");
    cmd->add_flag("--cross-device", a->cross_device,
                  "compare with a baseline from another device, normalised by roofs");
    cmd->add_option("--ceilings", a->ceilings,
                    "roofline ceilings: reuse (this host's latest, else measure), measure, none")
        ->check(CLI::IsMember({"reuse", "measure", "none"}));
    cmd->add_flag("--quiet,-q", a->quiet, "no progress bar");
    cmd->callback([a, &ctx] { ci_command(*a, ctx); });
}

}  // namespace memwall::cli

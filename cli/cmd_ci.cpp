#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "ci/paired_builds.hpp"
#include "cli/app.hpp"
#include "cli/compare_output.hpp"
#include "cli/isa_option.hpp"
#include "cli/isolation_args.hpp"
#include "core/errors.hpp"
#include "harness/gbench.hpp"
#include "harness/interrupt.hpp"
#include "harness/measure.hpp"
#include "harness/run_session.hpp"
#include "harness/shard.hpp"
#include "harness/suite.hpp"

namespace memwall::cli {

namespace {

struct CiArgs {
    std::string suite, baseline, baseline_build, report_dir, ceilings = "reuse";
    std::string shard;  // "I/N"; empty: the whole suite
    std::vector<std::string> tags;
    std::optional<double> threshold, alpha;
    bool update_baseline = false, cross_device = false, quiet = false, allow_empty = false;
    bool allow_unchecked = false;
    IsolationArgs isolation;
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
    return gbench_flags(
        {"--benchmark_repetitions=" + std::to_string(suite.repetitions),
         std::string("--benchmark_enable_random_interleaving=") + (suite.interleave ? "true" : "false")});
}

// A shard is compared with its own cases of the baseline, not reported as missing the others.
void keep_shard(LoadedRun& baseline, const SweepPlan& plan) {
    std::set<CaseKey> mine;
    SweepPlan::Pass pass = plan.pass();
    for (auto batch = pass.next(); !batch.empty(); batch = pass.next())
        for (const PlannedCase& c : batch) mine.insert(key_of(c));
    std::erase_if(baseline.cases, [&](const CaseRecord& c) { return !mine.count(c.key); });
}

// Prints the comparison, writes the reports, and returns whether it found a regression. An
// interrupted run's comparison is reported even when it matched nothing: the reports then say so.
bool report(Comparison& c, const CiArgs& a, bool interrupted = false) {
    refuse_empty(c, a.allow_empty || interrupted);
    refuse_unchecked(c, a.allow_unchecked);
    if (!a.report_dir.empty()) write_reports(c, a.report_dir);
    print_warnings(c);
    write_comparison(std::cout, c, "console");
    return c.regression();
}

// --baseline-build: the baseline build and this one, each in a worker process, measured side by
// side into two runs (measure_paired_builds), then compared pair by pair.
void ci_paired(const CiArgs& a, const Suite& suite, RunInfo info, Context& ctx) {
    if (::access(a.baseline_build.c_str(), X_OK) != 0)
        throw UsageError("--baseline-build " + a.baseline_build + ": not an executable file");
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    const PairedBuilds t = measure_paired_builds(ctx.db_path, suite, a.suite, a.baseline_build, self, std::move(info),
                                                 {.ceilings = ceilings_mode_from(a.ceilings), .progress = !a.quiet});
    const Store store = Store::open(ctx.db_path, Store::Mode::read_only);
    if (t.interrupted) {
        std::cerr << "memwall: interrupted; runs " << t.base_run << " and " << t.candidate_run
                  << " are incomplete and were not compared; measured together, they are not resumed: the same "
                     "memwall ci measures both builds anew\n";
        ctx.exit_status = 130;
        return;
    }
    std::cout << "suite " << suite.name << ": runs " << t.base_run << " (" << a.baseline_build << ") and "
              << t.candidate_run << " (this build) in " << ctx.db_path << ", measured together, " << t.cases
              << " cases\n\n";
    Comparison c = compare_runs(load_run(store, t.base_run), load_run(store, t.candidate_run), suite.compare);
    if (t.only_candidate || t.only_base)
        c.warnings.push_back(std::to_string(t.only_candidate) + " case(s) only in this build and " +
                             std::to_string(t.only_base) + " only in the baseline build were not measured");
    const bool regression = report(c, a);
    if (t.not_ok)
        std::cerr << "memwall: " << t.not_ok << " case(s) did not pass (see memwall show " << t.candidate_run << ")\n";
    ctx.exit_status = regression || t.not_ok ? 1 : 0;
}

void ci_command(const CiArgs& a, Context& ctx) {
    // From here an interrupt ends the command with 130: while the suite is planned, with nothing
    // stored; once the run is begun (even while ceilings are measured), as an interrupted run
    // whose measured cases are still compared and reported.
    const InterruptScope interrupts;
    if (!ctx.gbench_args.empty())
        throw UsageError("memwall ci takes its settings from the suite file, not " + ctx.gbench_args.front());
    Suite suite = load_suite(a.suite);
    if (!a.shard.empty()) {
        if (!a.baseline_build.empty())
            throw UsageError("--shard measures a stored baseline's shard, not a --baseline-build");
        suite.sweep.shard = parse_shard(a.shard);
    }
    if (a.threshold) suite.compare.threshold = *a.threshold;
    if (a.alpha) suite.compare.alpha = *a.alpha;
    suite.compare.cross_device = a.cross_device;
    suite.compare.validate();
    std::map<std::string, std::string> tags = parse_tags(a.tags);
    tags["suite"] = suite.name;
    const SweepPlan plan(suite.sweep, ctx.catalogue);
    RunInfo info = run_info(suite.sweep, plan.members(), Provenance::here(ctx.command_line), std::move(tags));
    if (a.baseline.empty() == a.baseline_build.empty())
        throw UsageError(
            "give one baseline: --baseline TAG (a stored run) or --baseline-build PATH (measured beside "
            "this build)");
    if (!a.baseline_build.empty()) {
        if (a.update_baseline) throw UsageError("--update-baseline records a stored baseline, not a --baseline-build");
        if (a.cross_device) throw UsageError("--cross-device: both builds run on this device with --baseline-build");
        ci_paired(a, suite, info, ctx);
        return;
    }
    const auto tag = baseline_tag(a.baseline);
    std::optional<LoadedRun> baseline = find_baseline(ctx.db_path, tag, a.update_baseline);

    const IsolationOptions isolation = isolation_from(a.isolation);
    init_google_benchmark(suite_gbench_flags(suite));
    throw_if_interrupted("planning the suite");  // nothing stored yet
    Store store = Store::open(ctx.db_path, Store::Mode::create);
    RunSession session = RunSession::begin(store, info, suite.sweep.backends,
                                           {.ceilings = ceilings_mode_from(a.ceilings), .progress = !a.quiet});
    const std::int64_t run_id = session.id();

    RunnerOptions opt;
    opt.measure.sampler = suite.sweep.sampler;
    opt.isolation = isolation;
    opt.seed = suite.sweep.seed;
    opt.repetitions = suite.repetitions;
    opt.progress = !a.quiet;
    QuietReporter quiet;
    const RunnerResult r = session.measure(plan, opt, &quiet);
    session.finish(r.interrupted ? RunStatus::interrupted : RunStatus::complete);
    std::cout << "suite " << suite.name << ": run " << run_id << " in " << ctx.db_path << ", " << r.measured
              << " cases measured" << (r.interrupted ? " before it was interrupted" : "") << "\n\n";

    bool regression = false;
    if (baseline) {
        if (suite.sweep.shard.count > 1) keep_shard(*baseline, plan);
        Comparison c = compare_runs(*baseline, load_run(store, run_id), suite.compare);
        const auto it = baseline->info.tags.find("suite");
        if (it != baseline->info.tags.end() && it->second != suite.name)
            c.warnings.push_back("the baseline was measured with suite " + it->second + ", not " + suite.name);
        if (r.interrupted)
            c.warnings.push_back("run " + std::to_string(run_id) +
                                 " was interrupted: " + std::to_string(c.cases.size()) + " of its " +
                                 std::to_string(plan.size()) + " cases were compared");
        regression = report(c, a, r.interrupted);
    } else {
        std::cout << "no earlier run tagged " << tag.first << "=" << tag.second << ": nothing to compare with\n";
    }
    if (r.interrupted) {  // an incomplete run never becomes the baseline
        std::cerr << "memwall: interrupted; run " << run_id << " is incomplete; `memwall run --resume " << run_id
                  << (suite.repetitions > 1 ? " --benchmark_repetitions=" + std::to_string(suite.repetitions) : "")
                  << "` measures the rest\n";
        ctx.exit_status = 130;
        return;
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
    add_isa_option(cmd);
    cmd->add_option("--baseline", a->baseline, "the stored baseline's tag: NAME (tag baseline=NAME) or key=value");
    cmd->add_option("--baseline-build", a->baseline_build,
                    "instead of a stored run: the baseline's memwall executable, measured beside this build (both "
                    "in worker processes, samples alternating), compared pair by pair");
    cmd->add_flag("--update-baseline", a->update_baseline,
                  "tag this run as the baseline afterwards (a missing baseline is then not an error)");
    cmd->add_option("--report-dir", a->report_dir, "write report.md, report.json and report.junit.xml here");
    cmd->add_flag("--allow-empty", a->allow_empty,
                  "accept a comparison in which no case matched (else exit status 2: it would check nothing)");
    cmd->add_flag("--allow-unchecked", a->allow_unchecked,
                  "compare cases no reference checked (else exit status 2: a fast wrong result is no result)");
    cmd->add_option("--tag", a->tags, "tag the run: key=value (e.g. branch=main, commit=abc123); repeatable");
    cmd->add_option("--shard", a->shard,
                    "measure the I-th of N disjoint parts of the suite (I/N), compared with the same cases of the "
                    "baseline; `memwall merge` joins the shards");
    cmd->add_option("--threshold", a->threshold, "minimum change that counts (default: the suite's, else 0.05)");
    cmd->add_option("--alpha", a->alpha, "significance level (default: the suite's, else 0.05)");
    cmd->add_flag("--cross-device", a->cross_device,
                  "compare with a baseline from another device, normalised by roofs");
    cmd->add_option("--ceilings", a->ceilings,
                    "roofline ceilings: reuse (this host's latest measured, unless flagged unreliable; else measure), "
                    "measure, none")
        ->check(CLI::IsMember({"reuse", "measure", "none"}));
    cmd->add_flag("--quiet,-q", a->quiet, "no progress bar");
    add_isolation_options(cmd, a->isolation);
    cmd->callback([a, &ctx] { ci_command(*a, ctx); });
}

}  // namespace memwall::cli

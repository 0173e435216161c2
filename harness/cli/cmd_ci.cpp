#include <benchmark/benchmark.h>

#include <csignal>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "harness/cli/app.hpp"
#include "harness/cli/ceilings_source.hpp"
#include "harness/cli/compare_output.hpp"
#include "harness/device_description.hpp"
#include "harness/errors.hpp"
#include "harness/machine.hpp"
#include "harness/runner.hpp"
#include "harness/suite.hpp"

namespace memwall::cli {

namespace {

struct CiArgs {
    std::string suite, baseline, report_dir, ceilings = "reuse";
    std::vector<std::string> tags;
    std::optional<double> threshold, alpha;
    bool update_baseline = false, cross_device = false, quiet = false;
};

// Google Benchmark's per-case lines are not shown: the comparison is the output.
class QuietReporter : public benchmark::BenchmarkReporter {
public:
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>&) override {}
};

void on_signal(int) { stop_requested = true; }

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

void init_gbench(const Suite& suite) {
    // Google Benchmark keeps argv for its report's context: the strings must outlive the run.
    static std::vector<std::string> storage;
    storage = {"memwall", "--benchmark_repetitions=" + std::to_string(suite.repetitions),
               std::string("--benchmark_enable_random_interleaving=") + (suite.interleave ? "true" : "false")};
    std::vector<char*> argv;
    for (auto& s : storage) argv.push_back(s.data());
    int argc = static_cast<int>(argv.size());
    benchmark::Initialize(&argc, argv.data());
    if (argc > 1) throw std::logic_error(std::string("Google Benchmark did not take ") + argv[1]);
}

void ci_command(const CiArgs& a, Context& ctx) {
    if (!ctx.gbench_args.empty())
        throw UsageError("memwall ci takes its settings from the suite file, not " + ctx.gbench_args.front());
    Suite suite = load_suite(a.suite);
    if (a.threshold) suite.compare.threshold = *a.threshold;
    if (a.alpha) suite.compare.alpha = *a.alpha;
    suite.compare.cross_device = a.cross_device;
    suite.compare.validate();
    RunInfo info;
    for (const auto& t : a.tags) {
        const auto eq = t.find('=');
        if (eq == std::string::npos || eq == 0) throw UsageError("--tag '" + t + "': expected key=value");
        info.tags[t.substr(0, eq)] = t.substr(eq + 1);
    }
    info.tags["suite"] = suite.name;
    const auto tag = baseline_tag(a.baseline);
    const std::vector<PlannedCase> cases = expand_sweep(suite.sweep, ctx.catalogue);
    const std::optional<LoadedRun> baseline = find_baseline(ctx.db_path, tag, a.update_baseline);

    init_gbench(suite);
    Store store = Store::open(ctx.db_path, Store::Mode::create);
    info.host = host_name();
    for (Backend b : suite.sweep.backends)
        info.backend += (info.backend.empty() ? "" : ",") + std::string(to_string(b));
    info.device = cpu_description();
    info.git_revision = memwall_git_revision();
    info.command_line = ctx.command_line;
    info.memwall_version = memwall_version();
    info.sweep = suite.sweep.to_json().dump();
    const std::int64_t run_id = store.begin_run(info);
    const MemoryHierarchy mh = detect_memory_hierarchy();
    store.set_run_properties(run_id, describe_devices(suite.sweep.backends, mh));
    const Ceilings ceilings = ceilings_for_run(store, run_id, a.ceilings, mh, !a.quiet);
    if (!ceilings.empty()) store.save_ceilings(run_id, ceilings);

    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    RunnerOptions opt;
    opt.measure.sampler = suite.sweep.sampler;
    opt.seed = suite.sweep.seed;
    opt.repetitions = suite.repetitions;
    opt.progress = !a.quiet;
    QuietReporter quiet;
    const RunnerResult r = run_cases(store, run_id, cases, mh, opt, &quiet);
    store.finish_run(run_id, r.interrupted ? RunStatus::interrupted : RunStatus::complete);
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
        if (!a.report_dir.empty()) write_reports(c, a.report_dir);
        print_warnings(c);
        write_comparison(std::cout, c, "console");
        regression = c.regression();
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
                                   "run a suite, compare it with the newest baseline run and write reports; exit "
                                   "status 1 on a regression or a failing case");
    auto a = std::make_shared<CiArgs>();
    cmd->add_option("--suite", a->suite, "the suite file (e.g. suites/attention-cpu.json)")->required();
    cmd->add_option("--baseline", a->baseline, "the baseline's tag: NAME (tag baseline=NAME) or key=value")->required();
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

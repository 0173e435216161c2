#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "cli/isolation_args.hpp"
#include "cli/isa_option.hpp"
#include "cli/metrics_option.hpp"
#include "cli/number_checks.hpp"
#include "cli/table.hpp"
#include "core/errors.hpp"
#include "core/output_file.hpp"
#include "core/space.hpp"
#include "harness/gbench.hpp"
#include "harness/interrupt.hpp"
#include "harness/run_session.hpp"
#include "harness/shard.hpp"
#include "harness/sweep.hpp"
#include "tuner/live/tuned_cases.hpp"

namespace memwall::cli {

namespace {

struct RunArgs {
    std::vector<std::string> families, variants, backends{"cpu"}, axes, zips, tags;
    bool unzip = false, quiet = false;
    std::uint64_t seed = 1;
    SamplerSettings sampler;
    double case_timeout = 120;
    std::string ceilings = "reuse";
    std::string resume;  // "" not resuming; "latest" or a run id
    bool tuned = false;
    std::string predict_for;  // --tuned on cuda-emu: whose predicted best
    bool retry_failed = false;
    bool tuned_abandoned = false;
    IsolationArgs isolation;
    std::string metrics = "default";
    std::string shard;  // "I/N"; empty: the whole sweep
};

SweepSpec spec_from(const RunArgs& a) {
    SweepSpec s;
    s.families = a.families;
    s.variants = a.variants;
    s.backends.clear();
    for (const auto& name : a.backends) {
        auto b = backend_from(name);
        if (!b) throw UsageError("unknown backend '" + name + "' (cpu, cuda, cuda-emu)");
        s.backends.push_back(*b);
    }
    s.overrides = a.axes;
    for (const auto& z : a.zips) s.zips.push_back(zip_names(z));
    s.unzip = a.unzip;
    s.seed = a.seed;
    s.sampler = a.sampler;
    s.sampler.validate();
    if (!a.shard.empty()) s.shard = parse_shard(a.shard);
    return s;
}

// --tuned: the GPU datasheet whose predicted best cuda-emu cases take; the run's "tuned" tag
// keeps it for --resume.
const DeviceSpec& tuned_device(const std::string& name) {
    if (name.empty()) return device_specs().front();
    if (const DeviceSpec* d = find_device_spec(name)) return *d;
    throw UsageError("unknown --predict-for '" + name + "' (" + device_spec_names() + ")");
}

// The cases that take a stored best, said on stderr before any is measured; the run then applies
// apply_tuned to each batch as it comes (a case's configurations of one problem share a batch).
void say_tuned(const SweepPlan& plan, const Store& store, const DeviceSpec& device, bool include_abandoned) {
    std::size_t tuned = 0;
    std::vector<std::string> untuned;
    SweepPlan::Pass pass = plan.pass();
    for (auto batch = pass.next(); !batch.empty(); batch = pass.next()) {
        TunedCases t = apply_tuned(batch, store, device, include_abandoned);
        tuned += t.tuned;
        untuned.insert(untuned.end(), t.untuned.begin(), t.untuned.end());
    }
    std::cerr << "tuned: " << tuned << " case(s) use their best stored configuration";
    if (untuned.empty()) {
        std::cerr << "\n";
        return;
    }
    std::cerr << "; " << untuned.size() << " have none stored and keep the default tunables:\n";
    for (const auto& n : untuned) std::cerr << "  " << n << "\n";
}

RunInfo run_to_resume(const Store& store, const std::string& which, const std::string& db_path) {
    std::optional<RunInfo> run;
    if (which == "latest") {
        run = store.latest_run();
        if (!run) throw UsageError("nothing to resume: " + db_path + " has no runs");
    } else {
        std::int64_t id = 0;
        try {
            id = std::stoll(which);
        } catch (const std::exception&) {
            throw UsageError("--resume takes a run id, got '" + which + "'");
        }
        run = store.run(id);
        if (!run) throw UsageError("no run " + which + " in " + db_path);
    }
    if (run->sweep.empty()) throw UsageError("run " + std::to_string(run->id) + " has no sweep to resume");
    if (const auto it = run->tags.find("paired_with"); it != run->tags.end())
        throw UsageError("run " + std::to_string(run->id) + " was measured together with run " + it->second +
                         " (memwall ci --baseline-build), each repetition of a case on both builds at once, which a "
                         "resume of one run cannot give; the same memwall ci measures both builds anew");
    if (run->status == RunStatus::running)
        throw EnvironmentError("run " + std::to_string(run->id) + " is being measured by process " +
                               std::to_string(run->owner.pid) + " on " + run->owner.host + " (last case stored " +
                               (run->heartbeat_at.empty() ? "never" : run->heartbeat_at) +
                               "); resume it once that process has ended");
    return *run;
}

void run_command(const RunArgs& a, Context& ctx, CLI::App* cmd) {
    // From here an interrupt ends the command with 130: while the sweep is planned, with nothing
    // stored; once the run is begun (even while ceilings are measured), as an interrupted run.
    const InterruptScope interrupts;
    const bool resuming = !a.resume.empty();
    if (resuming) {
        for (const char* opt :
             {"--family", "--variant", "--backend", "--axis", "--zip", "--unzip", "--seed", "--shard"})
            if (cmd->count(opt))
                throw UsageError(std::string(opt) +
                                 " cannot be combined with --resume: the run's own sweep is resumed");
    }
    for (const std::string& flag : ctx.gbench_args)  // Google Benchmark writes this file itself
        if (flag.rfind("--benchmark_out=", 0) == 0)
            refuse_overwriting(flag.substr(flag.find('=') + 1), Store::files(ctx.db_path),
                               "the database " + ctx.db_path);
    const GbenchFlags gbench = gbench_flags(ctx.gbench_args);
    init_google_benchmark(gbench);

    // Everything the user typed is validated before the database is touched.
    SweepSpec spec;
    std::optional<SweepPlan> plan;
    std::map<std::string, std::string> tags = parse_tags(a.tags);
    if (!resuming) {
        spec = spec_from(a);
        plan.emplace(spec, ctx.catalogue);
        if (a.tuned) check_tuned_overrides(plan->members(), a.axes);
    }
    if (a.retry_failed && !resuming) throw UsageError("--retry-failed is for --resume");
    const IsolationOptions isolation = isolation_from(a.isolation);
    const std::vector<std::string> metrics = metrics_from(a.metrics);
    if (resuming && (a.tuned || !a.predict_for.empty()))
        throw UsageError("--tuned cannot be combined with --resume: a run made with --tuned resumes tuned");
    if (!a.predict_for.empty() && !a.tuned) throw UsageError("--predict-for is for --tuned (cuda-emu cases)");
    const DeviceSpec* device = a.tuned ? &tuned_device(a.predict_for) : nullptr;
    SessionOptions options{.ceilings = ceilings_mode_from(a.ceilings), .progress = !a.quiet};
    const bool ceilings_given = cmd->count("--ceilings") > 0;
    throw_if_interrupted("planning the sweep");  // nothing stored yet
    Store store = Store::open(ctx.db_path, Store::Mode::create);

    std::optional<RunSession> session;
    if (resuming) {
        const RunInfo run = run_to_resume(store, a.resume, ctx.db_path);
        spec = SweepSpec::from_json(nlohmann::json::parse(run.sweep));
        plan.emplace(spec, ctx.catalogue);
        if (auto t = run.tags.find("tuned"); t != run.tags.end()) device = &tuned_device(t->second);
        // A run begun without ceilings resumes without them, unless asked otherwise.
        if (auto t = run.tags.find("ceilings"); t != run.tags.end() && t->second == "none" && !ceilings_given)
            options.ceilings = CeilingsMode::none;
        if (a.retry_failed) {
            const std::size_t n = store.remove_cases(run.id, {CaseStatus::failed, CaseStatus::timeout});
            std::cerr << "retrying " << n << " failed or timed-out case(s) of run " << run.id << "\n";
        }
        std::cerr << "resuming run " << run.id << ": " << store.case_count(run.id) << " of " << plan->size()
                  << " cases already stored\n";
        session = RunSession::resume(store, run.id, spec.backends, options);
    } else {
        if (device) tags["tuned"] = device->name;
        if (options.ceilings == CeilingsMode::none) tags["ceilings"] = "none";
        session = RunSession::begin(store, run_info(spec, plan->members(), Provenance::here(ctx.command_line), tags),
                                    spec.backends, options);
    }
    BatchEdit tuned;
    if (device) {
        say_tuned(*plan, store, *device, a.tuned_abandoned);
        tuned = [&](std::vector<PlannedCase>& batch) {
            batch = apply_tuned(batch, store, *device, a.tuned_abandoned).cases;
        };
    }

    RunnerOptions opt;
    opt.measure.sampler = spec.sampler;
    opt.measure.case_timeout = a.case_timeout;
    opt.measure.metrics = metrics;
    opt.isolation = isolation;
    opt.seed = spec.seed;
    opt.repetitions = gbench.repetitions;
    opt.progress = !a.quiet;
    QuietReporter quiet;
    const RunnerResult r = session->measure(*plan, opt, gbench.own_report ? nullptr : &quiet, tuned);
    session->finish(r.interrupted ? RunStatus::interrupted : RunStatus::complete);
    const std::int64_t run_id = session->id();

    if (!gbench.own_report) {
        std::cout << "run " << run_id << " in " << ctx.db_path << ": " << r.measured << " cases measured";
        if (r.skipped) std::cout << ", " << r.skipped << " already stored";
        std::cout << "\n\n";
        const Ceilings ceilings = store.ceilings(run_id);
        print_cases(std::cout, store.cases(run_id, false), ceilings);
        if (const std::string line = unreliable_ceilings_line(ceilings); !line.empty()) std::cout << line << '\n';
        if (r.isolation.cases) std::cout << "\n" << isolation_summary(r.isolation) << "\n";
    }
    if (r.interrupted) {
        std::cerr << "memwall: interrupted; `memwall run --resume " << run_id << "` measures the rest\n";
        ctx.exit_status = 130;
    } else if (r.not_ok) {
        std::cerr << "memwall: " << r.not_ok << " case(s) did not pass (see status)\n";
        ctx.exit_status = 1;
    }
}

}  // namespace

void add_run_command(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand("run",
                                   "sweep families and variants over their axes into the database, then print "
                                   "a roofline table; Google Benchmark flags (--benchmark_*) are passed on");
    auto a = std::make_shared<RunArgs>();
    cmd->add_option("--family,-f", a->families, "families to run (default: all)")->delimiter(',');
    cmd->add_option("--variant,-v", a->variants, "variants to run (default: all)")->delimiter(',');
    cmd->add_option("--backend,-b", a->backends, "backends: cpu, cuda, cuda-emu (default: cpu)")->delimiter(',');
    cmd->add_option("--axis,-a", a->axes, "override an axis: name=a,b,c | name=lo:hi:step | name=pow2:lo:hi");
    cmd->add_option("--zip", a->zips, "tie axes so they advance together: name1,name2");
    cmd->add_flag("--unzip", a->unzip, "drop the families' default zips (e.g. sweep seq_k apart from seq_q)");
    cmd->add_option("--seed", a->seed, "seed of the random inputs")->check(whole_number());
    cmd->add_option("--tag", a->tags, "tag the run: key=value (e.g. branch=main)");
    cmd->add_option("--shard", a->shard,
                    "measure the I-th of N disjoint parts of the sweep, balanced by the cases' modelled cost: I/N "
                    "(0 <= I < N); `memwall merge` joins the shards' databases");
    cmd->add_option("--resume", a->resume, "measure only the cases missing from a run (default: the latest)")
        ->expected(0, 1);
    cmd->add_option("--ceilings", a->ceilings,
                    "roofline ceilings: reuse (this host's latest measured, unless flagged unreliable; else "
                    "measure), measure, none")
        ->check(CLI::IsMember({"reuse", "measure", "none"}));
    cmd->add_flag("--quiet,-q", a->quiet, "no progress bar");
    cmd->add_flag("--tuned", a->tuned,
                  "each case takes the best configuration stored by `memwall tune` for its "
                  "device and problem (cases with none keep the defaults)");
    cmd->add_flag("--tuned-abandoned", a->tuned_abandoned,
                  "with --tuned: also take unconfirmed bests of tuning sessions that were killed");
    cmd->add_option("--predict-for", a->predict_for,
                    "with --tuned: cuda-emu cases take the best predicted for this GPU (default H100 SXM)");
    cmd->add_option("--warmup", a->sampler.warmup_runs, "untimed runs before sampling");
    cmd->add_option("--min-samples", a->sampler.min_samples, "samples before stopping is considered");
    cmd->add_option("--min-time", a->sampler.min_time, "seconds of samples before stopping is considered");
    cmd->add_option("--max-noise", a->sampler.max_noise,
                    "stop when the relative stddev or the median's 95% CI half-width is below this (0.01 = 1%)");
    cmd->add_option("--timeout", a->sampler.timeout, "seconds of sampling per case after which it stops regardless");
    cmd->add_option("--case-timeout", a->case_timeout,
                    "seconds a case may take from set-up to its last sample; past it the case is stopped and stored "
                    "as timeout (default 120)")
        ->check(positive_number());
    cmd->add_flag("--retry-failed", a->retry_failed, "with --resume: measure the failed and timed-out cases again");
    add_isolation_options(cmd, a->isolation);
    add_metrics_option(cmd, a->metrics);
    add_isa_option(cmd);
    cmd->callback([a, &ctx, cmd] {
        if (cmd->count("--resume") && a->resume.empty()) a->resume = "latest";
        run_command(*a, ctx, cmd);
    });
}

}  // namespace memwall::cli

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>

#include "cli/app.hpp"
#include "cli/isolation_args.hpp"
#include "cli/isa_option.hpp"
#include "cli/metrics_option.hpp"
#include "cli/number_checks.hpp"
#include "cli/tune_progress.hpp"
#include "cli/tuning_output.hpp"
#include "core/errors.hpp"
#include "harness/interrupt.hpp"
#include "harness/run_session.hpp"
#include "results/report.hpp"
#include "results/tune_eval_store.hpp"
#include "tuner/live/live_objective.hpp"
#include "tuner/live/model_prior.hpp"
#include "tuner/replay.hpp"
#include "tuner/stored_session.hpp"
#include "tuner/strategy.hpp"
#include "tuner/tune_eval.hpp"
#include "tuner/tuning_session.hpp"

namespace memwall::cli {

namespace {

// A recording file, or "DB#ID": session ID of a memwall database (a file named so is a file).
RecordedSpace load_space(const std::string& path) {
    const auto ref = std::filesystem::exists(path) ? std::nullopt : session_reference(path);
    RecordedSpace s =
        ref ? recorded_space_from_session(Store::open(ref->database, Store::Mode::read_only), ref->session, path)
            : load_recorded_space(path);
    for (const auto& note : s.notes) std::cerr << path << ": " << note << "\n";
    return s;
}

struct TuneArgs {
    std::string replay, family, variant, backend = "cpu", predict_for, strategy = "guided";
    std::vector<std::string> axes, priors;
    std::optional<std::size_t> budget;  // default: none for guided (the stopping rule), else 100
    std::size_t stale = 0, confirm = Confirmation{}.candidates;
    double seconds = 0, stop_chance = 0.05;
    std::uint64_t seed = 1;
    bool quiet = false;
    SamplerSettings sampler;
    double case_timeout = 120;
    IsolationArgs isolation;
    std::string metrics = "default";
    std::string anchor = "default";
    bool allow_unchecked = false;
};

// Strategies with a model stop by the rule; the others need a budget.
bool stops_by_rule(const TuneArgs& a) {
    return a.stop_chance > 0 && (a.strategy == "guided" || a.strategy == "guided-online");
}

std::size_t evaluation_budget(const TuneArgs& a) { return a.budget.value_or(stops_by_rule(a) ? 0 : 100); }

TuningSessionInfo session_info(const TuneArgs& a, const Context& ctx) {
    const Provenance who = Provenance::here(ctx.command_line);
    TuningSessionInfo info;
    info.host = who.host;
    info.strategy = a.strategy;
    info.seed = a.seed;
    info.budget_evaluations = static_cast<std::int64_t>(evaluation_budget(a));
    info.budget_seconds = a.seconds;
    info.budget_stale = static_cast<std::int64_t>(a.stale);
    info.git_revision = who.git_revision;
    info.command_line = who.command_line;
    info.memwall_version = who.memwall_version;
    return info;
}

// Runs the search, storing every evaluation as it completes; Ctrl-C stops it after the
// evaluation in flight. A live line shows the evaluations, the best so far and the time.
Trace run_session(Objective& objective, Strategy& strategy, const TuneArgs& a, SessionRecorder& recorder,
                  const std::string& time_label) {
    const TuningSpace& space = objective.space();
    const std::size_t evaluations = evaluation_budget(a);
    const Budget budget{evaluations, a.seconds, a.stale, a.stop_chance};
    Confirmation confirmation;
    confirmation.candidates = a.confirm;
    const std::size_t reserve = confirmation_reserve(objective, budget, confirmation);
    if (reserve == 0 && objective.noisy() && a.confirm > 1)
        std::cerr << "memwall: no confirmation of the best: a budget of " << evaluations
                  << " evaluations leaves none to spare (confirming " << a.confirm << " candidates needs more than "
                  << 2 * a.confirm * confirmation.rounds << ")\n";
    TuneProgress progress(evaluations ? std::min(evaluations, space.size() + reserve) : space.size() + reserve,
                          time_label, !a.quiet);
    std::size_t done = 0;
    double best = std::numeric_limits<double>::infinity();
    TuneHooks hooks;
    hooks.proposed = [&](std::size_t config) { progress.measuring(done, space.label(config)); };
    hooks.evaluated = [&](const Trace& t) {
        recorder.record(t);
        done = t.measurements();
        const TraceEntry& e = t.entries.back();
        if (e.evaluation.ok() && e.evaluation.seconds < best) {
            best = e.evaluation.seconds;
            progress.best(best, space.label(e.config));
        }
    };
    hooks.confirming = [&](std::size_t config) { progress.measuring(done, "again: " + space.label(config)); };
    hooks.confirmed = [&](const Trace& t, std::size_t entry) {
        recorder.update(t, entry);
        done = t.measurements();
        if (const auto b = t.best()) progress.best(t.entries[*b].evaluation.seconds, space.label(t.entries[*b].config));
    };
    hooks.interrupted = [] { return stop_requested.load(); };
    const Trace trace = tune(objective, strategy, budget, hooks, confirmation);
    progress.finish();
    recorder.finish(trace);
    return trace;
}

// The session as stored: its trials, then the best; the exit status says how it ended.
void report(const Store& store, std::int64_t id, const Trace& trace, const TuneArgs& a, Context& ctx) {
    const TuningSessionSummary s = *tuning_session(store, id);
    const auto rows = trials(store, id);
    std::cout << "strategy " << a.strategy << ", seed " << a.seed << ": " << trace.entries.size()
              << " configurations evaluated, stopped by " << to_string(*trace.stop_reason);
    if (trace.confirmations) {
        std::size_t confirmed = 0;
        for (const auto& e : trace.entries) confirmed += e.times.size() > 1;
        std::cout << "; the " << confirmed << " fastest measured again (" << trace.confirmations << " measurements, "
                  << trace.measurements() << " in all)";
    }
    std::cout << "; session " << id << " in " << ctx.db_path << "\n";
    std::optional<std::size_t> judged;
    for (std::size_t i = 0; i < trace.entries.size(); ++i)
        if (!std::isnan(trace.entries[i].improvement_chance)) judged = i;
    if (judged)
        std::cout << stopping_rule_line(*judged + 1, trace.entries[*judged].improvement_chance, trace.noise,
                                        a.stop_chance)
                  << "\n";
    else if (stops_by_rule(a))
        std::cout << "stopping rule: not judged (too few evaluations)\n";
    if (!a.quiet) {
        std::cout << "\n";
        print_trials(std::cout, s, rows);
    }
    std::cout << "\n";
    print_best(std::cout, s, rows);
    if (trace.stop_reason == StopReason::interrupted) {
        std::cerr << "memwall: interrupted; the " << trace.entries.size() << " evaluations so far are stored\n";
        ctx.exit_status = 130;
    } else if (!s.best_index) {
        ctx.exit_status = 1;
    }
}

// "67 TFLOP/s", "3.35 TB/s".
std::string rate(double per_second, const char* unit) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3g T%s/s", per_second / 1e12, unit);
    return buf;
}

std::string values_text(const Parameter& p) {
    if (p.values.size() <= 4) {
        std::string out;
        for (const auto& v : p.values) out += (out.empty() ? "" : ",") + to_string(v);
        return out;
    }
    return to_string(p.values.front()) + ".." + to_string(p.values.back()) + " (" + std::to_string(p.values.size()) +
           " values)";
}

// Other devices' recordings of the kernel, over the target's space; each one used is announced.
std::vector<DevicePrior> device_priors(const std::vector<std::string>& files, const TuningSpace& target,
                                       const std::string& target_device) {
    std::vector<DevicePrior> out;
    for (const std::string& f : files) {
        const RecordedSpace other = load_space(f);
        if (other.device == target_device)
            throw UsageError("prior " + f + " was recorded on " + other.device +
                             ", the device tuned: a prior comes from another device");
        out.push_back(device_prior_from(other, target));
        const DevicePrior& d = out.back();
        using S = DevicePrior::Source;
        std::cout << "prior     " << other.device << " (" << f << "): " << d.count(S::recorded) << " of the "
                  << target.size() << " configurations recorded there, " << d.count(S::failed) << " failed there\n";
    }
    return out;
}

void tune_replay(const TuneArgs& a, Context& ctx) {
    const RecordedSpace space = load_space(a.replay);
    ReplayObjective objective(space);
    std::cout << a.replay << ": " << space.kernel << " on " << space.device << " (recorded), " << space.space.size()
              << " configurations\n";
    Prior prior;
    prior.counters = counter_prior_from(space);
    prior.devices = device_priors(a.priors, space.space, space.device);
    auto strategy = make_strategy(a.strategy, space.space, a.seed, &prior);
    Store store = Store::open(ctx.db_path, Store::Mode::create);

    TuningSessionInfo info = session_info(a, ctx);
    info.device = space.device;
    info.backend = "replay";
    info.variant = space.kernel;
    info.problem = Params().canonical();
    info.time_source = TimeSource::recorded;
    info.source_file = a.replay;
    SessionRecorder recorder(store, info, space.space);
    const Trace trace = run_session(objective, *strategy, a, recorder, time_label(TimeSource::recorded, space.device));
    report(store, recorder.id(), trace, a, ctx);
}

void tune_live(const TuneArgs& a, Context& ctx) {
    if (a.family.empty() || a.variant.empty())
        throw UsageError("tune needs --family and --variant (live tuning), or --replay FILE (a recorded space)");
    const auto backend = backend_from(a.backend);
    if (!backend) throw UsageError("unknown backend '" + a.backend + "' (cpu, cuda, cuda-emu)");
    const DeviceSpec* predict_for = nullptr;
    if (*backend == Backend::cuda_emu) {
        predict_for = find_device_spec(a.predict_for.empty() ? device_specs().front().name : a.predict_for);
        if (!predict_for)
            throw UsageError("unknown --predict-for '" + a.predict_for + "' (" + device_spec_names() + ")");
    } else if (!a.predict_for.empty()) {
        throw UsageError(
            "--predict-for names the GPU whose roofline predicts times on --backend cuda-emu; "
            "on " +
            a.backend + " times are measured");
    }
    a.sampler.validate();
    const std::vector<std::string> metrics = metrics_from(a.metrics);
    if (ctx.catalogue.variant(a.family, a.variant, *backend).unchecked && !a.allow_unchecked)
        throw UsageError(a.family + "/" + a.variant +
                         " has no reference to check its output against: its configurations "
                         "would be unchecked; --allow-unchecked tunes it anyway");
    const LiveTarget target = live_target(ctx.catalogue, a.family, a.variant, *backend, a.axes);
    const BackendStatus status = probe_backend(*backend);
    if (!status.available) throw UsageError("backend " + a.backend + " is not available here: " + status.reason);
    const MemoryHierarchy mh = detect_memory_hierarchy();
    Prior prior;
    prior.devices = device_priors(a.priors, target.space, status.device);
    if (uses_prior(a.strategy)) prior.counters = model_counter_prior(target, mh);
    prior.start = target.anchor_id;
    auto strategy = make_strategy(a.strategy, target.space, a.seed, &prior);
    Store store = Store::open(ctx.db_path, Store::Mode::create);

    TuningSessionInfo info = session_info(a, ctx);
    info.device = tuning_device(*backend, predict_for);
    info.backend = a.backend;
    info.family = a.family;
    info.variant = a.variant;
    info.problem = target.problem.canonical();
    info.time_source = predict_for ? TimeSource::predicted : TimeSource::measured;
    const std::string label = time_label(info.time_source, info.device);
    // A shared CPU's speed drifts between configurations measured seconds apart; a GPU's does not.
    const bool anchored = a.anchor == "default" && *backend == Backend::cpu;

    std::cout << a.family << "/" << a.variant << " on " << a.backend << ": " << status.device << "\n"
              << "problem   " << target.problem.label();
    if (!target.defaulted.empty()) std::cout << "  (not given, first valid value: " << target.defaulted.label() << ")";
    std::cout << "\nspace     ";
    const auto& parameters = target.space.parameters();
    for (std::size_t p = 0; p < parameters.size(); ++p) {
        const bool ranged =
            std::find(target.ranged.begin(), target.ranged.end(), parameters[p].name) != target.ranged.end();
        std::cout << (p ? " x " : "") << parameters[p].name << " " << values_text(parameters[p])
                  << (ranged ? " [default range]" : "");
    }
    std::cout << ": " << target.space.size() << " valid configurations\n";
    if (predict_for) {
        std::cout << "time      " << label << ": max(FLOPs / " << rate(predict_for->fp32_flops, "FLOP")
                  << ", DRAM bytes / " << rate(predict_for->dram_bandwidth, "B");
        if (predict_for->l2_bandwidth) std::cout << ", L2 bytes / " << rate(*predict_for->l2_bandwidth, "B");
        std::cout << ") from emu counters; " << predict_for->source << "\n";
    } else if (anchored) {
        std::cout << "time      measured here, each sample beside one of the anchor " << target.anchor.label()
                  << ": the median ratio to it, times its time alone\n";
    } else {
        std::cout << "time      median of the samples, measured here\n";
    }
    if (!prior.counters.empty()) {
        std::cout << "prior     the model's counts of each configuration: ";
        for (std::size_t k = 0; k < prior.counters.names.size(); ++k)
            std::cout << (k ? ", " : "") << prior.counters.names[k];
        std::cout << "\n";
    }

    LiveOptions options;
    options.measure.sampler = a.sampler;
    options.measure.case_timeout = a.case_timeout;
    options.measure.metrics = metrics;
    options.isolation = isolation_from(a.isolation);
    options.predict_for = predict_for;
    if (anchored) options.measure.anchor = target.anchor;
    LiveObjective objective(target, mh, options);
    if (const auto alone = objective.anchor_seconds()) {
        info.anchor = target.anchor.canonical();
        info.anchor_seconds = alone;
        std::cout << "anchor    " << target.anchor.label() << ": " << format_duration(*alone) << " alone\n";
    }
    throw_if_interrupted("measuring the anchor");  // no session stored yet
    SessionRecorder recorder(store, info, target.space);
    const Trace trace = run_session(objective, *strategy, a, recorder, label);
    report(store, recorder.id(), trace, a, ctx);
}

void tune_command(const TuneArgs& a, Context& ctx, CLI::App* cmd) {
    // From here an interrupt ends the command with 130; once a session is stored, it ends it
    // interrupted after the trial in flight (which is not stored when the interrupt killed its worker).
    const InterruptScope interrupts;
    if (!a.replay.empty()) {
        for (const char* opt : {"--family", "--variant", "--backend", "--axis", "--predict-for"})
            if (cmd->count(opt)) throw UsageError(std::string(opt) + " cannot be combined with --replay");
        tune_replay(a, ctx);
    } else {
        tune_live(a, ctx);
    }
}

}  // namespace

void add_tune_commands(CLI::App& app, Context& ctx) {
    auto* tune = app.add_subcommand("tune",
                                    "search a variant's tunable axes for the fastest configuration of one "
                                    "problem (stored per trial), or replay a recorded GPU space (--replay)");
    auto a = std::make_shared<TuneArgs>();
    tune->add_option("--family,-f", a->family, "family of the variant to tune");
    tune->add_option("--variant,-v", a->variant, "variant to tune");
    tune->add_option("--backend,-b", a->backend,
                     "cpu (measured), cuda, or cuda-emu (time predicted from emu counters)");
    tune->add_option("--axis,-a", a->axes,
                     "fix a problem axis (name=value) or restrict a tunable (name=a,b,c | lo:hi:step | pow2:lo:hi); "
                     "tunables not given are searched over a default range");
    tune->add_option("--predict-for", a->predict_for,
                     "cuda-emu: the GPU whose datasheet roofline predicts the time (default H100 SXM)");
    tune->add_option("--replay", a->replay,
                     "recorded space: Kernel Tuner cache or KTT JSON (.json, .json.gz), or a stored session DB#ID");
    tune->add_option("--prior", a->priors,
                     "recordings of the same kernel on other devices (Kernel Tuner cache, KTT JSON, or a session DB#ID "
                     "tuned elsewhere), which guided "
                     "learns from before measuring and trusts as far as they predict the measurements here")
        ->delimiter(',');
    tune->add_option("--strategy", a->strategy,
                     "exhaustive, random, anneal, genetic, guided (counter-guided; given a recording's "
                     "device-independent counters when it has them) or guided-online (never given them)");
    tune->add_option("--budget", a->budget,
                     "measurements: unique configurations, plus --confirm's (0: no limit; default: none for guided, "
                     "which stops by the rule of --stop-chance, 100 for the other strategies)")
        ->check(whole_number());
    tune->add_option("--stop-chance", a->stop_chance,
                     "guided stops when its model gives the unmeasured configurations less than this chance "
                     "that any beats the best by more than the measurements' noise (default 0.05; 0: off)")
        ->check(fraction());
    tune->add_option("--confirm", a->confirm,
                     "measured times: measure the fastest N (within 10%) twice more at the end and keep each "
                     "one's median; the measurements come out of --budget (0: off; default 3)")
        ->check(whole_number());
    tune->add_option("--seconds", a->seconds, "budget in evaluation seconds (0: no limit)")
        ->check(non_negative_number());
    tune->add_option("--stale", a->stale, "stop after this many evaluations without improvement (0: never)")
        ->check(whole_number());
    tune->add_option("--seed", a->seed, "seed of the strategy")->check(whole_number());
    tune->add_flag("--quiet,-q", a->quiet, "no progress line and no trial table: only the best configuration");
    tune->add_option("--warmup", a->sampler.warmup_runs, "untimed runs before sampling");
    tune->add_option("--min-samples", a->sampler.min_samples, "samples before stopping is considered");
    tune->add_option("--min-time", a->sampler.min_time, "seconds of samples before stopping is considered");
    tune->add_option("--max-noise", a->sampler.max_noise, "stop sampling when the noise is below this (0.01 = 1%)");
    tune->add_option("--timeout", a->sampler.timeout, "seconds of sampling per configuration at most");
    tune->add_option("--case-timeout", a->case_timeout,
                     "seconds a configuration may take from set-up to its last sample; past it it is stopped and "
                     "fails (default 120)")
        ->check(positive_number());
    tune->add_option("--anchor", a->anchor,
                     "cpu: time each configuration beside the variant's default configuration, their samples "
                     "alternating, so the machine's drift cancels in their ratio (default), or alone (none)")
        ->check(CLI::IsMember({"default", "none"}));
    tune->add_flag("--allow-unchecked", a->allow_unchecked,
                   "tune a variant no reference checks (else exit status 2: a fast wrong result is no result)");
    add_isolation_options(tune, a->isolation);
    add_metrics_option(tune, a->metrics);
    add_isa_option(tune);
    tune->callback([a, &ctx, tune] { tune_command(*a, ctx, tune); });

    auto* eval = app.add_subcommand("tune-eval",
                                    "score strategies on recorded spaces against the exact "
                                    "random-search baseline (Willemsen et al.); the table is stored");
    auto files = std::make_shared<std::vector<std::string>>();
    auto strategies = std::make_shared<std::vector<std::string>>(strategy_names());
    auto opt = std::make_shared<TuneEvalOptions>();
    eval->add_option("files", *files,
                     "Kernel Tuner cache or KTT JSON files (.json, .json.gz), or stored sessions DB#ID")
        ->required();
    eval->add_option("--strategy", *strategies, "strategies to compare (default: all)")->delimiter(',');
    eval->add_option("--seeds", opt->seeds, "seeds per strategy and space (default 100)")->check(whole_number());
    eval->add_option("--stop-chance", opt->stop_chance,
                     "replay with tune's stopping rule on at this chance, and report where it stopped each run "
                     "(default 0: off, runs go on to the optimum)")
        ->check(fraction());
    auto prior_files = std::make_shared<std::vector<std::string>>();
    eval->add_option("--prior", *prior_files,
                     "recordings guided learns from before measuring: each space is given those of the same "
                     "parameters from other devices")
        ->delimiter(',');
    eval->callback([files, prior_files, strategies, opt, &ctx] {
        std::vector<RecordedSpace> spaces, prior_spaces;
        for (const auto& f : *files) spaces.push_back(load_space(f));
        for (const auto& f : *prior_files) prior_spaces.push_back(load_space(f));
        std::vector<const RecordedSpace*> ptrs;
        for (const auto& s : spaces) ptrs.push_back(&s);
        TuneEvalOptions o = *opt;
        for (const auto& s : prior_spaces) o.priors.push_back(&s);
        if (isatty(STDERR_FILENO)) {
            o.progress = [](double f) {
                std::fprintf(stderr, "\r\033[Ktune-eval %3.0f%%", f * 100);
                std::fflush(stderr);
            };
        }
        const TuneEvalTable table = tune_eval(ptrs, *strategies, o);
        if (o.progress) std::fputs("\r\033[K", stderr);
        Store store = Store::open(ctx.db_path, Store::Mode::create);
        const Provenance who = Provenance::here(ctx.command_line);
        const std::int64_t id =
            save_tune_eval(store, table, {{}, who.host, who.git_revision, who.command_line, who.memwall_version});
        std::cout << render_tune_eval(table) << "stored as tune-eval " << id << " in " << ctx.db_path << "\n";
    });
}

}  // namespace memwall::cli

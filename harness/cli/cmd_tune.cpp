#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <iostream>

#include "harness/cli/app.hpp"
#include "harness/cli/table.hpp"
#include "harness/errors.hpp"
#include "results/report.hpp"
#include "tuner/replay.hpp"
#include "tuner/strategy.hpp"
#include "tuner/tune.hpp"
#include "tuner/tune_eval.hpp"

namespace memwall::cli {

namespace {

RecordedSpace load_space(const std::string& path) {
    RecordedSpace s = load_recorded_space(path);
    for (const auto& note : s.notes) std::cerr << path << ": " << note << "\n";
    return s;
}

struct TuneArgs {
    std::string replay, strategy = "guided";
    std::size_t budget = 100, stale = 0;
    double seconds = 0;
    std::uint64_t seed = 1;
    bool quiet = false;
};

void tune_command(const TuneArgs& a) {
    if (a.replay.empty())
        throw UsageError("tune needs --replay FILE (a Kernel Tuner cache or KTT JSON recording); live tuning of "
                         "memwall's own variants is not built yet");
    const RecordedSpace space = load_space(a.replay);
    ReplayObjective objective(space);
    auto strategy = make_strategy(a.strategy, space.space, a.seed);
    const Trace trace = tune(objective, *strategy, Budget{a.budget, a.seconds, a.stale});

    std::cout << a.replay << ": " << space.kernel << " on " << space.device << " (recorded), "
              << space.space.size() << " configurations\n"
              << "strategy " << a.strategy << ", seed " << a.seed << ": " << trace.entries.size()
              << " evaluations, stopped by " << trace.stop_reason << "\n";
    Table t({"eval", "configuration", "status", "time", "best so far"}, {true, false, false, true, true});
    for (std::size_t i = 0; i < trace.entries.size(); ++i) {
        const TraceEntry& e = trace.entries[i];
        const bool ok = e.evaluation.status == EvalStatus::ok;
        t.add({std::to_string(i + 1), space.space.label(e.config),
               ok ? "ok" : std::string(to_string(e.evaluation.status)) + ": " + e.evaluation.reason,
               ok ? format_duration(e.evaluation.seconds) : "-",
               std::isfinite(e.best_seconds) ? format_duration(e.best_seconds) : "-"});
    }
    if (!a.quiet) {
        std::cout << "\n";
        t.print(std::cout);
    }
    if (auto best = trace.best()) {
        const TraceEntry& e = trace.entries[*best];
        std::cout << "\nbest: " << space.space.label(e.config) << "  " << format_duration(e.evaluation.seconds)
                  << " (recorded on " << space.device << "), found at evaluation " << *best + 1 << "\n";
    } else {
        std::cout << "\nno configuration succeeded\n";
    }
}

}  // namespace

void add_tune_commands(CLI::App& app, Context& ctx) {
    (void)ctx;
    auto* tune = app.add_subcommand("tune", "search a tuning space with a strategy; --replay FILE replays a "
                                            "recorded GPU space (Kernel Tuner cache or KTT JSON)");
    auto a = std::make_shared<TuneArgs>();
    tune->add_option("--replay", a->replay, "recorded space: .json or .json.gz");
    tune->add_option("--strategy", a->strategy, "exhaustive, random, anneal, genetic or guided");
    tune->add_option("--budget", a->budget, "unique configurations to evaluate (0: no limit)");
    tune->add_option("--seconds", a->seconds, "budget in (recorded) evaluation seconds (0: no limit)");
    tune->add_option("--stale", a->stale, "stop after this many evaluations without improvement (0: never)");
    tune->add_option("--seed", a->seed, "seed of the strategy");
    tune->add_flag("--quiet,-q", a->quiet, "only the best configuration");
    tune->callback([a] { tune_command(*a); });

    auto* eval = app.add_subcommand("tune-eval", "score strategies on recorded spaces against the exact "
                                                 "random-search baseline (Willemsen et al.)");
    auto files = std::make_shared<std::vector<std::string>>();
    auto strategies = std::make_shared<std::vector<std::string>>(strategy_names());
    auto opt = std::make_shared<TuneEvalOptions>();
    eval->add_option("files", *files, "Kernel Tuner cache or KTT JSON files (.json, .json.gz)")->required();
    eval->add_option("--strategy", *strategies, "strategies to compare (default: all)")->delimiter(',');
    eval->add_option("--seeds", opt->seeds, "seeds per strategy and space (default 100)");
    eval->callback([files, strategies, opt] {
        std::vector<RecordedSpace> spaces;
        for (const auto& f : *files) spaces.push_back(load_space(f));
        std::vector<const RecordedSpace*> ptrs;
        for (const auto& s : spaces) ptrs.push_back(&s);
        TuneEvalOptions o = *opt;
        if (isatty(STDERR_FILENO)) {
            o.progress = [](double f) {
                std::fprintf(stderr, "\r\033[Ktune-eval %3.0f%%", f * 100);
                std::fflush(stderr);
            };
        }
        const TuneEvalTable table = tune_eval(ptrs, *strategies, o);
        if (o.progress) std::fputs("\r\033[K", stderr);
        std::cout << render_tune_eval(table);
    });
}

}  // namespace memwall::cli

#include "harness/runner.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <memory>

#include "core/errors.hpp"
#include "harness/interrupt.hpp"
#include "harness/progress.hpp"
#include "stats/bootstrap.hpp"

namespace memwall {

namespace {

// Repetitions of one case accumulate here until the last one, then the case is committed.
struct Pending {
    CaseRecord record;
    int reps_done = 0;
};

// Ends a repetition without a time. It goes through the state's loop as a timed repetition
// does: Google Benchmark checks that a benchmark's repetitions ran equal iterations
// (ComputeStats) and aborts the process when one skipped before its loop beside two that ran,
// as an interrupt or a case failing in a later repetition did.
void skip(benchmark::State& state, const std::string& why) {
    for (auto _ : state) state.SkipWithError(why.c_str());
}

}  // namespace

RunnerResult run_cases(Store& store, std::int64_t run_id, const SweepPlan& plan, const MemoryHierarchy& mh,
                       const RunnerOptions& opt, benchmark::BenchmarkReporter* display, const BatchEdit& edit) {
    RunnerResult result;
    const auto done = store.case_keys(run_id);
    std::unique_ptr<CaseMeasurer> measurer;  // started at the first case to measure
    const std::size_t left = plan.size() - std::min(plan.size(), done.size());
    Progress progress(left * static_cast<std::size_t>(opt.repetitions), opt.progress);

    SweepPlan::Pass pass = plan.pass();
    for (auto batch = pass.next(); !batch.empty() && !stop_requested; batch = pass.next()) {
        if (edit) edit(batch);
        std::vector<const PlannedCase*> todo;
        for (const auto& c : batch) {
            if (done.count(key_of(c))) {
                ++result.skipped;
            } else {
                todo.push_back(&c);
            }
        }
        if (todo.empty()) continue;
        if (!measurer) {
            try {
                measurer = make_measurer(opt.isolation, mh);
            } catch (const Interrupted&) {  // the interrupt killed the first worker as it started
                result.interrupted = true;
                break;
            }
        }
        std::map<const PlannedCase*, Pending> pending;

        benchmark::ClearRegisteredBenchmarks();
        for (const PlannedCase* c : todo) {
            auto fn = [&, c](benchmark::State& state) {
                if (stop_requested) {
                    result.interrupted = true;
                    pending.erase(c);  // its earlier repetitions are not a case
                    skip(state, "interrupted");
                    return;
                }
                progress.begin(c->name());
                Pending& p = pending[c];
                CaseRecord rec;
                try {
                    rec = measurer->measure(*c, opt.seed, opt.measure);
                } catch (const Interrupted&) {  // its worker killed by the interrupt: measured by --resume
                    result.interrupted = true;
                    pending.erase(c);
                    skip(state, "interrupted");
                    progress.end();
                    return;
                } catch (const std::exception& e) {  // no worker could be started in place of a lost one
                    rec.key = key_of(*c);
                    rec.status = CaseStatus::failed;
                    rec.message = e.what();
                }
                if (p.reps_done == 0) {
                    p.record = std::move(rec);
                } else if (!ran(rec.status)) {
                    p.record.status = rec.status;
                    p.record.message = rec.message;
                } else if (!rec.samples.empty()) {
                    p.record.samples.push_back(std::move(rec.samples.front()));
                    // One repetition timed on a busy host makes the pooled times doubtful too.
                    if (rec.host_busy() && !p.record.host_busy()) {
                        p.record.sampling_stop = rec.sampling_stop;
                        p.record.message += "; repetition " + std::to_string(p.reps_done + 1) + ": " + rec.message;
                    }
                }
                ++p.reps_done;
                const CaseRecord& r = p.record;
                if (ran(r.status)) {
                    const auto& mine = r.samples.back();
                    for (auto _ : state) state.SetIterationTime(summarize(mine).median);
                    state.counters["samples"] = static_cast<double>(mine.size());
                } else {
                    skip(state, std::string(to_string(r.status)) + ": " + r.message);
                }
                if (p.reps_done == opt.repetitions) {
                    CaseRecord final = std::move(p.record);
                    pending.erase(c);
                    if (ran(final.status)) final.summary = summarize(pooled_samples(final.samples));
                    final.run_id = run_id;
                    store.save_case(final);
                    ++result.measured;
                    if (!ran(final.status)) ++result.not_ok;
                }
                progress.end();
            };
            benchmark::RegisterBenchmark(c->name().c_str(), fn)
                ->Iterations(1)
                ->Repetitions(opt.repetitions)
                ->UseManualTime()
                ->Unit(benchmark::kMicrosecond);
        }
        benchmark::RunSpecifiedBenchmarks(display);
        benchmark::ClearRegisteredBenchmarks();
    }
    progress.finish();
    if (stop_requested) result.interrupted = true;
    if (const auto* isolated = dynamic_cast<const IsolatedMeasurer*>(measurer.get()))
        result.isolation = isolated->stats();
    return result;
}

}  // namespace memwall

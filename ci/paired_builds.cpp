#include "ci/paired_builds.hpp"

#include <map>
#include <memory>

#include "ci/measure_worker.hpp"
#include "core/errors.hpp"
#include "harness/interrupt.hpp"
#include "harness/progress.hpp"

namespace memwall {

PairedBuilds measure_paired_builds(const std::string& db_path, const Suite& suite, const std::string& suite_path,
                                   const std::string& baseline_exe, const std::string& candidate_exe, RunInfo candidate,
                                   const SessionOptions& options) {
    auto worker = [&](const std::string& exe, const std::string& side) {
        return std::make_unique<WorkerArm>(
            start_worker({exe, "measure-worker", "--suite", suite_path}, side + "'s worker"), side);
    };
    const auto base = worker(baseline_exe, "the baseline build (" + baseline_exe + ")");
    const auto cand = worker(candidate_exe, "the candidate build (" + candidate_exe + ")");

    // Cases of both builds, matched by key; the others cannot be paired.
    std::map<CaseKey, std::size_t> in_base;
    for (std::size_t i = 0; i < base->worker_cases().size(); ++i) in_base[base->worker_cases()[i]] = i;
    std::vector<std::size_t> order_b, order_c;
    for (std::size_t i = 0; i < cand->worker_cases().size(); ++i) {
        const auto it = in_base.find(cand->worker_cases()[i]);
        if (it == in_base.end()) continue;
        order_b.push_back(it->second);
        order_c.push_back(i);
    }
    PairedBuilds out;
    out.cases = order_c.size();
    out.only_candidate = cand->worker_cases().size() - order_c.size();
    out.only_base = base->worker_cases().size() - order_b.size();
    if (order_c.empty())
        throw UsageError("the baseline build and this one have no case of suite " + suite.name + " in common");
    base->set_order(order_b);
    cand->set_order(order_c);

    Store store = Store::open(db_path, Store::Mode::create);
    RunInfo base_info = candidate;
    base_info.tags = {{"suite", suite.name}, {"build", baseline_exe}};
    base_info.git_revision = base->git_revision();
    base_info.memwall_version = base->version();
    base_info.axes.clear();
    RunSession base_run = RunSession::begin(store, base_info, suite.sweep.backends, options);
    candidate.tags["paired_with"] = std::to_string(base_run.id());
    SessionOptions same = options;
    same.given_ceilings = base_run.ceilings();
    if (same.given_ceilings->reused_from_run == 0)  // the candidate's are a copy of the baseline run's
        same.given_ceilings->reused_from_run = base_run.id();
    RunSession cand_run = RunSession::begin(store, candidate, suite.sweep.backends, same);
    // Both carry the tag, so neither is resumed alone (run --resume): its cases would lose their pairs.
    store.set_tag(base_run.id(), "paired_with", std::to_string(cand_run.id()));
    out.base_run = base_run.id();
    out.candidate_run = cand_run.id();

    const InterruptScope interrupts;
    const PairedPlan plan{order_c.size(), suite.repetitions, suite.interleave, suite.sweep.sampler, suite.sweep.seed};
    Progress progress(order_c.size() * static_cast<std::size_t>(suite.repetitions), options.progress);
    PairedRuns t;
    try {
        progress.begin("both builds");
        const auto next = [&](std::size_t, std::size_t) {
            progress.end();
            progress.begin("both builds");
        };
        // Each pair is stored as its repetition ends: kill -9 loses at most the pair in flight.
        const auto store_pair = [&](std::size_t, CaseRecord b, CaseRecord c) {
            b.run_id = base_run.id();
            c.run_id = cand_run.id();
            store.replace_cases({std::move(b), std::move(c)});
        };
        t = measure_paired(*base, *cand, plan, next, &stop_requested, store_pair);
        progress.finish();
    } catch (const Interrupted&) {
        // A worker killed by the interrupt (SIGTERM to the group): the pairs stored so far are
        // kept, as when the interrupt came between two pairs.
        progress.finish();
        t.interrupted = true;
    } catch (...) {
        for (RunSession* run : {&base_run, &cand_run}) run->finish(RunStatus::interrupted);
        throw;
    }
    for (const CaseRecord& c : t.candidate)
        if (!c.key.family.empty() && !ran(c.status)) ++out.not_ok;
    for (RunSession* run : {&base_run, &cand_run})
        run->finish(t.interrupted ? RunStatus::interrupted : RunStatus::complete);
    out.interrupted = t.interrupted;
    return out;
}

}  // namespace memwall

#include "harness/measure.hpp"

#include <chrono>
#include <cstdio>

#include "profiler/perf_events.hpp"

namespace memwall {

CaseKey key_of(const PlannedCase& c) {
    return {c.family->name, c.variant->name, std::string(to_string(c.variant->backend)), c.problem.canonical(),
            c.config.canonical()};
}

namespace {
std::string check_summary(const Check& ch) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "rel. L2 error %.3g (tolerance %.3g)", ch.error, ch.tolerance);
    return buf;
}
}  // namespace

CaseRecord measure_case(const PlannedCase& c, const Workload& w, const MemoryHierarchy& mh,
                        const MeasureOptions& opt) {
    CaseRecord rec;
    rec.key = key_of(c);
    const Params point = c.problem.merged(c.config);
    try {
        rec.counters = c.variant->model(point, mh);
        auto inst = c.variant->prepare(w, point);
        inst->poison();
        const auto t0 = std::chrono::steady_clock::now();
        inst->run();
        const double first = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const Check ch = inst->check();
        if (!ch.ok) {
            rec.status = CaseStatus::wrong_result;
            rec.message = ch.message.empty() ? check_summary(ch) : ch.message;
            return rec;
        }
        if (first > opt.case_timeout) {
            rec.status = CaseStatus::timeout;
            rec.message = "one run took " + std::to_string(first) + " s, over the case timeout";
            return rec;
        }
        for (auto& m : inst->measured_counters()) rec.counters.push_back(std::move(m));
        Sampling s = take_samples([&] { return inst->run_timed(); }, opt.sampler);
        // CPU counters over one more run, where the machine has a PMU (many VMs do not).
        static const bool perf = c.variant->backend == Backend::cpu && probe_perf_events().available;
        if (perf) {
            PerfCounterGroup g;
            g.start();
            inst->run();
            g.stop();
            for (auto& m : g.read()) rec.counters.push_back(std::move(m));
        }
        rec.summary = summarize(s.seconds);
        rec.samples.push_back(std::move(s.seconds));
        rec.status = CaseStatus::ok;
        rec.message = check_summary(ch) + "; sampling " + s.stop_reason;
    } catch (const std::exception& e) {
        rec.status = CaseStatus::failed;
        rec.message = e.what();
    }
    return rec;
}

}  // namespace memwall

#include "harness/measure.hpp"

#include <chrono>
#include <cstdio>
#include <new>
#include <random>

#include "harness/paired_sampler.hpp"
#include "harness/run_delay.hpp"

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

PreparedCase prepare_case(const PlannedCase& c, const Workload& w, const MemoryHierarchy& mh,
                          const MeasureOptions& opt) {
    PreparedCase out;
    CaseRecord& rec = out.record;
    rec.key = key_of(c);
    const Params point = c.problem.merged(c.config);
    try {
        rec.counters = c.variant->input_model ? c.variant->input_model(w, point, mh) : c.variant->model(point, mh);
        auto inst = c.variant->prepare(w, point);
        inst->poison();
        if (opt.stage) opt.stage("check");
        const auto t0 = std::chrono::steady_clock::now();
        inst->run();
        const double first = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const Check ch = inst->check();
        if (!ch.ok) {
            rec.status = CaseStatus::wrong_result;
            rec.message = ch.message.empty() ? check_summary(ch) : ch.message;
            return out;
        }
        if (first > opt.case_timeout) {
            rec.status = CaseStatus::timeout;
            rec.message = "one run took " + std::to_string(first) + " s, over the case timeout";
            return out;
        }
        for (auto& m : inst->measured_counters()) rec.counters.push_back(std::move(m));
        rec.status = ch.unchecked ? CaseStatus::unchecked : CaseStatus::ok;
        rec.message = ch.unchecked ? ch.message : check_summary(ch);
        if (const std::string d = inst->detail(); !d.empty()) rec.message += "; " + d;
        out.instance = std::move(inst);
    } catch (const std::bad_alloc&) {
        rec.status = CaseStatus::failed;
        rec.message = "out of memory: an allocation failed (std::bad_alloc)";
    } catch (const std::exception& e) {
        rec.status = CaseStatus::failed;
        rec.message = e.what();
    }
    return out;
}

CaseRecord measure_case(const PlannedCase& c, const Workload& w, const MemoryHierarchy& mh, const MeasureOptions& opt) {
    PreparedCase p = prepare_case(c, w, mh, opt);
    CaseRecord& rec = p.record;
    if (!p.instance) return rec;
    PreparedCase anchor;
    if (opt.anchor) {
        if (opt.stage) opt.stage("anchor");
        MeasureOptions quiet = opt;
        quiet.stage = nullptr;
        anchor = prepare_case({c.family, c.variant, c.problem, *opt.anchor}, w, mh, quiet);
        if (!anchor.instance) {
            rec.status = CaseStatus::failed;
            rec.message = "its anchor " + opt.anchor->label() + ": " + anchor.record.message;
            return rec;
        }
    }
    try {
        if (opt.stage) opt.stage("warm-up");
        const auto sampling = [&] {
            if (opt.stage) opt.stage("sampling");
        };
        Sampling s;
        if (anchor.instance) {
            // The order within each pair is drawn, so neither side always follows the other.
            std::mt19937_64 order(1);
            PairedSampling both =
                take_paired_samples([&] { return anchor.instance->run_timed(); },
                                    [&] { return p.instance->run_timed(); }, opt.sampler, order, sampling);
            rec.anchor_samples = std::move(both.a.seconds);
            s = std::move(both.b);
        } else {
            // Samples whose threads waited to run on a busy host are discarded (harness/run_delay).
            static const RunDelaySource run_delay = process_run_delay();
            s = take_samples([&] { return p.instance->run_timed(); }, opt.sampler, sampling, run_delay);
        }
        // CPU counters over one more run, where the machine has a PMU (many VMs do not).
        static const bool pmu = probe_perf_events().available;
        if (pmu && c.variant->backend == Backend::cpu) {
            PerfCounterGroup g;
            g.start();
            p.instance->run();
            g.stop();
            for (auto& m : g.read()) rec.counters.push_back(std::move(m));
        }
        for (auto& m : p.instance->sampled_counters()) rec.counters.push_back(std::move(m));
        // A collection that fails costs the counters, not the time measured.
        if (!opt.metrics.empty()) {
            if (opt.stage) opt.stage("counters");
            try {
                Profile prof = p.instance->profile(opt.metrics);
                for (auto& m : prof.counters) rec.counters.push_back(std::move(m));
                for (const std::string& f : prof.failures) rec.message += "; " + f;
            } catch (const std::exception& e) {
                rec.message += std::string("; counters not collected: ") + e.what();
            }
        }
        rec.summary = summarize(s.seconds);
        rec.samples.push_back(std::move(s.seconds));
        rec.message += "; sampling " + s.stop_reason;
        if (!s.busy.empty())
            rec.message += " (" + s.busy + ")";
        else if (s.discarded > 0)
            rec.message += "; " + std::to_string(s.discarded) + " samples discarded, their threads waited to run";
        rec.sampling_stop = s.stop_reason;
    } catch (const std::exception& e) {
        rec.status = CaseStatus::failed;
        rec.message = e.what();
    }
    return rec;
}

}  // namespace memwall

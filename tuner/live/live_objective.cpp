#include "tuner/live/live_objective.hpp"

#include <chrono>
#include <stdexcept>

namespace memwall {

Evaluation evaluation_of(const CaseRecord& rec, Backend backend, const DeviceSpec* predict_for) {
    Evaluation e;
    switch (rec.status) {
        case CaseStatus::ok: break;
        case CaseStatus::wrong_result:
            e.status = EvalStatus::failed;
            e.reason = "wrong result: " + rec.message;
            return e;
        case CaseStatus::timeout:
            e.status = EvalStatus::failed;
            e.reason = "timeout: " + rec.message;
            return e;
        case CaseStatus::failed:
            e.status = EvalStatus::runtime_failed;
            e.reason = rec.message;
            return e;
        case CaseStatus::skipped:
            e.status = EvalStatus::failed;
            e.reason = "skipped: " + rec.message;
            return e;
    }
    if (backend != Backend::cuda_emu) {
        e.seconds = rec.summary.median;
        for (const auto& rep : rec.samples) e.samples.insert(e.samples.end(), rep.begin(), rep.end());
        e.counters = rec.counters;
        return e;
    }
    if (!predict_for) throw std::logic_error("evaluation_of: cuda-emu needs a device to predict for");
    for (const Counter& c : rec.counters)
        if (c.source == CounterSource::emu || c.name == counters::flops) e.counters.push_back(c);
    const auto p = predict_roofline(*predict_for, e.counters);
    if (!p) {
        e.status = EvalStatus::failed;
        e.reason = "no emu traffic counters to predict a time from";
        e.counters.clear();
        return e;
    }
    e.seconds = p->seconds;
    return e;
}

LiveObjective::LiveObjective(const LiveTarget& target, const MemoryHierarchy& mh, LiveOptions options)
    : target_(target), options_(std::move(options)), measurer_(make_measurer(options_.isolation, mh)) {
    const Backend b = target_.variant->backend;
    if (b == Backend::cuda_emu) {
        if (!options_.predict_for) throw std::logic_error("LiveObjective: cuda-emu needs a device to predict for");
        SamplerSettings& s = options_.measure.sampler;
        s.warmup_runs = 0;
        s.min_samples = s.max_samples = 1;
        s.min_time = 0;
    }
}

Evaluation LiveObjective::evaluate(std::size_t config) {
    const PlannedCase c{target_.family, target_.variant, target_.problem, target_.space.params(config)};
    const auto t0 = std::chrono::steady_clock::now();
    const CaseRecord rec = measurer_->measure(c, options_.input_seed, options_.measure);
    Evaluation e = evaluation_of(rec, target_.variant->backend, options_.predict_for);
    e.cost_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return e;
}

}  // namespace memwall

#include "tuner/live/live_objective.hpp"

#include <chrono>
#include <stdexcept>

#include "core/errors.hpp"
#include "stats/statistics.hpp"

namespace memwall {

Evaluation evaluation_of(const CaseRecord& rec, Backend backend, const DeviceSpec* predict_for,
                         std::optional<double> anchor_seconds) {
    Evaluation e;
    switch (rec.status) {
        case CaseStatus::ok:
        case CaseStatus::unchecked: break;  // LiveObjective refuses unchecked cases unless allowed
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
        for (const auto& rep : rec.samples) e.samples.insert(e.samples.end(), rep.begin(), rep.end());
        e.counters = rec.counters;
        if (rec.anchor_samples.empty()) {
            e.seconds = rec.summary.median;
            return e;
        }
        if (!anchor_seconds || e.samples.size() != rec.anchor_samples.size())
            throw std::logic_error("evaluation_of: samples timed beside an anchor need its time, one per sample");
        // Each sample at the anchor's speed when it was measured alone.
        for (std::size_t i = 0; i < e.samples.size(); ++i) e.samples[i] *= *anchor_seconds / rec.anchor_samples[i];
        e.seconds = summarize(e.samples).median;
        return e;
    }
    if (!predict_for) throw std::logic_error("evaluation_of: cuda-emu needs a device to predict for");
    for (const Counter& c : rec.counters)
        if (c.source == CounterSource::emu || c.name == counters::kFlops) e.counters.push_back(c);
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
        options_.measure.anchor.reset();  // no time is measured to compare
    }
    if (const auto anchor = options_.measure.anchor) {
        MeasureOptions alone = options_.measure;
        alone.anchor.reset();
        const CaseRecord rec =
            measurer_->measure({target_.family, target_.variant, target_.problem, *anchor}, options_.input_seed, alone);
        if (!ran(rec.status))
            throw UsageError("the anchor " + anchor->label() + " (every configuration is timed beside it) " +
                             std::string(to_string(rec.status)) + ": " + rec.message);
        anchor_seconds_ = rec.summary.median;
    }
}

Evaluation LiveObjective::evaluate(std::size_t config) {
    const PlannedCase c{target_.family, target_.variant, target_.problem, target_.space.params(config)};
    const auto t0 = std::chrono::steady_clock::now();
    const CaseRecord rec = measurer_->measure(c, options_.input_seed, options_.measure);
    Evaluation e = evaluation_of(rec, target_.variant->backend, options_.predict_for, anchor_seconds_);
    e.cost_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return e;
}

}  // namespace memwall

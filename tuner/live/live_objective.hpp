// Live tuning: an Objective that evaluates a configuration of a memwall variant through the
// harness (measure_case: poison, run, check against the reference, samples, counters), in a
// worker process unless isolation is off, so a configuration that crashes or hangs costs only
// itself. A configuration that fails or computes a wrong result is an evaluation with its
// reason, so it is recorded and never chosen. The workload (inputs and reference) is built once.
//
// Time: on cpu (and cuda) the median of the samples, measured here; beside an anchor
// (MeasureOptions::anchor), the anchor's time measured alone once, at the start, times the median
// ratio of each sample to the anchor's sample taken with it, so every configuration is compared
// with the same one under the same conditions, whatever the machine's drift. On cuda-emu it is the
// roofline prediction for a named device from the emu counters (predict_roofline): the
// emulation's wall time says nothing about a GPU, so it is neither the objective nor stored as
// samples. Counters: what measure_case gives (the model's on cpu); on cuda-emu the emu counters
// under their CUPTI names, plus the model's FLOPs the prediction needs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "harness/isolated_measurer.hpp"
#include "harness/measure.hpp"
#include "tuner/live/live_tuning.hpp"
#include "tuner/objective.hpp"

namespace memwall {

struct LiveOptions {
    MeasureOptions measure;
    IsolationOptions isolation;
    std::uint64_t input_seed = 1;
    // cuda-emu: the device whose roofline gives the time (required there, ignored elsewhere).
    const DeviceSpec* predict_for = nullptr;
};

class LiveObjective final : public Objective {
  public:
    // Keeps a reference to `target`; starts the worker when isolated. On cuda-emu one checked
    // run and one sample per configuration are enough: no emulated time is used. With an anchor
    // (options.measure.anchor; ignored on cuda-emu) measures it alone first; throws UsageError
    // when it fails.
    LiveObjective(const LiveTarget& target, const MemoryHierarchy& mh, LiveOptions options);

    const TuningSpace& space() const override { return target_.space; }
    Evaluation evaluate(std::size_t config) override;
    // Measured times vary; predicted ones (cuda-emu) do not.
    bool noisy() const override { return options_.predict_for == nullptr; }
    // The anchor's time measured alone, the scale of every time; nullopt without an anchor.
    std::optional<double> anchor_seconds() const { return anchor_seconds_; }

  private:
    const LiveTarget& target_;
    LiveOptions options_;
    std::unique_ptr<CaseMeasurer> measurer_;
    std::optional<double> anchor_seconds_;
};

// How one measured case becomes an evaluation (cost_seconds left to the caller): see above.
// `anchor_seconds`: the scale of a case timed beside an anchor.
Evaluation evaluation_of(const CaseRecord& record, Backend backend, const DeviceSpec* predict_for,
                         std::optional<double> anchor_seconds = std::nullopt);

}  // namespace memwall

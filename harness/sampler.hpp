// Timing samples with warm-up and noise-aware stopping (nvbench's rule, adapted to the CPU).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "harness/run_delay.hpp"

namespace memwall {

struct SamplerSettings {
    int warmup_runs = 1;
    int min_samples = 10;
    double min_time = 0.25;   // seconds of samples before stopping is considered
    double max_noise = 0.01;  // stop when the relative stddev, or the 95% CI of the median
                              // (half-width relative to it), is at most this
    double timeout = 3.0;     // seconds of samples after which sampling stops regardless
    int max_samples = 10000;

    nlohmann::json to_json() const;
    static SamplerSettings from_json(const nlohmann::json& j);
    // Throws UsageError when a field is out of range.
    void validate() const;
};

// A sample is discarded when its threads waited to run (summed over them) for more than this
// share of its time: the wait is in the sample, which timed the machine's other processes.
// nvbench discards a GPU's throttled samples the same way.
constexpr double kMaxRunDelayShare = 0.1;

struct Sampling {
    std::vector<double> seconds;
    std::string stop_reason;  // one of sampling_stop's
    int discarded = 0;        // samples left out because their threads waited to run
    // Why the samples cannot be trusted ("9 of 10 samples discarded, ..."): sampling ended with fewer than
    // min_samples kept (`seconds` holds those kept, or the discarded ones when none was). Empty
    // otherwise.
    std::string busy;
};

// Runs `once` (one timed execution returning seconds) per the settings; `sampling`, when given,
// is called between the warm-up runs and the first sample (a case's stages, measure.hpp).
// With a `run_delay` source, each sample whose threads waited to run for more than
// kMaxRunDelayShare of it is discarded: it counts towards the timeout, not the samples. When the
// timeout comes with fewer than min_samples kept, the stop reason is sampling_stop::kHostBusy.
Sampling take_samples(const std::function<double()>& once, const SamplerSettings& s,
                      const std::function<void()>& sampling = {}, const RunDelaySource& run_delay = {});

}  // namespace memwall

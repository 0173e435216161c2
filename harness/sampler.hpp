// Timing samples with warm-up and noise-aware stopping (nvbench's rule, adapted to the CPU).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace memwall {

struct SamplerSettings {
    int warmup_runs = 1;
    int min_samples = 10;
    double min_time = 0.25;      // seconds of samples before stopping is considered
    double max_noise = 0.01;     // stop when the relative stddev, or the 95% CI of the median
                                 // (half-width relative to it), is at most this
    double timeout = 3.0;        // seconds of samples after which sampling stops regardless
    int max_samples = 10000;

    nlohmann::json to_json() const;
    static SamplerSettings from_json(const nlohmann::json& j);
    // Throws UsageError when a field is out of range.
    void validate() const;
};

struct Sampling {
    std::vector<double> seconds;
    std::string stop_reason;  // one of sampling_stop's
};

// Runs `once` (one timed execution returning seconds) per the settings; `sampling`, when given,
// is called between the warm-up runs and the first sample (a case's stages, measure.hpp).
Sampling take_samples(const std::function<double()>& once, const SamplerSettings& s,
                      const std::function<void()>& sampling = {});

}  // namespace memwall

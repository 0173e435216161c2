#include "harness/sampler.hpp"

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "results/store.hpp"
#include "stats/statistics.hpp"

namespace memwall {

nlohmann::json SamplerSettings::to_json() const {
    return {{"warmup_runs", warmup_runs}, {"min_samples", min_samples}, {"min_time", min_time},
            {"max_noise", max_noise},     {"timeout", timeout},         {"max_samples", max_samples}};
}

SamplerSettings SamplerSettings::from_json(const nlohmann::json& j) {
    SamplerSettings s;
    try {
        s.warmup_runs = j.at("warmup_runs").get<int>();
        s.min_samples = j.at("min_samples").get<int>();
        s.min_time = j.at("min_time").get<double>();
        s.max_noise = j.at("max_noise").get<double>();
        s.timeout = j.at("timeout").get<double>();
        s.max_samples = j.at("max_samples").get<int>();
    } catch (const nlohmann::json::exception& e) {
        throw InputError(std::string("sampler settings: ") + e.what());
    }
    s.validate();
    return s;
}

void SamplerSettings::validate() const {
    if (warmup_runs < 0) throw UsageError("--warmup must be >= 0");
    if (min_samples < 1) throw UsageError("--min-samples must be >= 1");
    if (max_samples < min_samples) throw UsageError("--max-samples must be >= --min-samples");
    // Finite too: a time of inf (which strtod and JSON readers accept) would never stop sampling.
    if (!(min_time >= 0 && std::isfinite(min_time))) throw UsageError("--min-time must be a finite number >= 0");
    if (!(max_noise > 0 && std::isfinite(max_noise))) throw UsageError("--max-noise must be a finite number > 0");
    if (!(timeout > 0 && std::isfinite(timeout))) throw UsageError("--timeout must be a finite number > 0");
}

namespace {

std::string busy_reason(int discarded, int taken, double waited, double timed) {
    const long percent = timed > 0 ? std::lround(100 * waited / timed) : 0;
    return std::to_string(discarded) + " of " + std::to_string(taken) +
           " samples discarded, their threads waited to run for " + std::to_string(percent) +
           "% of their time (summed over the threads)";
}

}  // namespace

Sampling take_samples(const std::function<double()>& once, const SamplerSettings& s,
                      const std::function<void()>& sampling, const RunDelaySource& run_delay) {
    for (int i = 0; i < s.warmup_runs; ++i) once();
    if (sampling) sampling();
    Sampling out;
    std::vector<double> discarded;
    double total = 0, waited = 0, discarded_time = 0;
    for (;;) {
        const double d0 = run_delay ? run_delay() : 0;
        const double t = once();
        const double wait = run_delay ? run_delay() - d0 : 0;
        total += t;
        if (wait > kMaxRunDelayShare * t) {
            discarded.push_back(t);
            waited += wait;
            discarded_time += t;
        } else {
            out.seconds.push_back(t);
        }
        const auto n = static_cast<int>(out.seconds.size());
        const auto taken = n + static_cast<int>(discarded.size());
        if (taken >= s.max_samples) {
            out.stop_reason = sampling_stop::kMaxSamples;
            break;
        }
        if (n >= s.min_samples && total >= s.min_time) {
            const Summary sum = summarize(out.seconds);
            const Interval ci = median_ci(out.seconds, 0.95);
            const double half_width = (ci.hi - ci.lo) / 2 / sum.median;
            if (sum.rsd <= s.max_noise || half_width <= s.max_noise) {
                out.stop_reason = sampling_stop::kConverged;
                break;
            }
        }
        if (total >= s.timeout) {
            out.stop_reason = n < s.min_samples ? sampling_stop::kTimeLimitBeforeMin : sampling_stop::kTimeLimit;
            break;
        }
    }
    out.discarded = static_cast<int>(discarded.size());
    if (static_cast<int>(out.seconds.size()) < s.min_samples && out.discarded > 0) {
        out.stop_reason = sampling_stop::kHostBusy;
        out.busy =
            busy_reason(out.discarded, out.discarded + static_cast<int>(out.seconds.size()), waited, discarded_time);
        // Nothing kept: the discarded times, flagged, are all there is to show.
        if (out.seconds.empty()) out.seconds = std::move(discarded);
    }
    return out;
}

}  // namespace memwall

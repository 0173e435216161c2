#include "harness/paired_sampler.hpp"

#include <cmath>
#include <vector>

#include "results/store.hpp"
#include "stats/statistics.hpp"

namespace memwall {

PairedSampling take_paired_samples(const std::function<double()>& a, const std::function<double()>& b,
                                   const SamplerSettings& s, std::mt19937_64& rng,
                                   const std::function<void()>& sampling) {
    for (int i = 0; i < s.warmup_runs; ++i) {
        a();
        b();
    }
    if (sampling) sampling();
    PairedSampling out;
    std::vector<double> log_ratios;
    double total_a = 0, total_b = 0;
    for (;;) {
        double ta = 0, tb = 0;
        if (rng() & 1) {
            ta = a();
            tb = b();
        } else {
            tb = b();
            ta = a();
        }
        out.a.seconds.push_back(ta);
        out.b.seconds.push_back(tb);
        log_ratios.push_back(std::log(tb / ta));
        total_a += ta;
        total_b += tb;
        const auto n = static_cast<int>(log_ratios.size());
        std::string stop;
        if (n >= s.max_samples) {
            stop = sampling_stop::kMaxSamples;
        } else if (n >= s.min_samples && total_a >= s.min_time && total_b >= s.min_time) {
            const Interval ci = median_ci(log_ratios, 0.95);
            if ((ci.hi - ci.lo) / 2 <= s.max_noise) stop = sampling_stop::kConverged;
        }
        if (stop.empty() && (total_a >= s.timeout || total_b >= s.timeout))
            stop = n < s.min_samples ? sampling_stop::kTimeLimitBeforeMin : sampling_stop::kTimeLimit;
        if (!stop.empty()) {
            out.a.stop_reason = out.b.stop_reason = stop;
            return out;
        }
    }
}

}  // namespace memwall

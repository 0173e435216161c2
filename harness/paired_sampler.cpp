#include "harness/paired_sampler.hpp"

#include <cmath>
#include <vector>

#include "results/statistics.hpp"
#include "results/store.hpp"

namespace memwall {

PairedSampling take_paired_samples(const std::function<double()>& a, const std::function<double()>& b,
                                   const SamplerSettings& s, std::mt19937_64& rng,
                                   const std::function<void()>& sampling, const RunDelaySource& run_delay) {
    for (int i = 0; i < s.warmup_runs; ++i) {
        a();
        b();
    }
    if (sampling) sampling();
    PairedSampling out;
    PairedSampling discarded;
    std::vector<double> log_ratios;
    double total_a = 0, total_b = 0, waited = 0, discarded_time = 0;
    for (;;) {
        double ta = 0, tb = 0;
        const double d0 = run_delay ? run_delay() : 0;
        if (rng() & 1) {
            ta = a();
            tb = b();
        } else {
            tb = b();
            ta = a();
        }
        const double wait = run_delay ? run_delay() - d0 : 0;
        total_a += ta;
        total_b += tb;
        if (wait > kMaxRunDelayShare * (ta + tb)) {
            discarded.a.seconds.push_back(ta);
            discarded.b.seconds.push_back(tb);
            waited += wait;
            discarded_time += ta + tb;
        } else {
            out.a.seconds.push_back(ta);
            out.b.seconds.push_back(tb);
            log_ratios.push_back(std::log(tb / ta));
        }
        const auto n = static_cast<int>(log_ratios.size());
        const auto taken = n + static_cast<int>(discarded.a.seconds.size());
        std::string stop;
        if (taken >= s.max_samples) {
            stop = sampling_stop::max_samples;
        } else if (n >= s.min_samples && total_a >= s.min_time && total_b >= s.min_time) {
            const Interval ci = median_ci(log_ratios, 0.95);
            if ((ci.hi - ci.lo) / 2 <= s.max_noise) stop = sampling_stop::converged;
        }
        if (stop.empty() && (total_a >= s.timeout || total_b >= s.timeout))
            stop = n < s.min_samples ? sampling_stop::time_limit_before_min : sampling_stop::time_limit;
        if (stop.empty()) continue;

        const auto dropped = static_cast<int>(discarded.a.seconds.size());
        out.a.stop_reason = out.b.stop_reason = stop;
        out.a.discarded = out.b.discarded = dropped;
        if (n < s.min_samples && dropped > 0) {
            out.a.stop_reason = out.b.stop_reason = sampling_stop::host_busy;
            out.a.busy = out.b.busy = busy_reason(dropped, taken, waited, discarded_time);
            // Nothing kept: the discarded pairs, flagged, are all there is to show.
            if (n == 0) {
                out.a.seconds = std::move(discarded.a.seconds);
                out.b.seconds = std::move(discarded.b.seconds);
            }
        }
        return out;
    }
}

}  // namespace memwall

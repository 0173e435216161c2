// Paired timing (two builds of one case, or a tuned configuration and its anchor): their
// samples alternate, so the machine's speed, which drifts over milliseconds to seconds on a
// shared VM, is the same for both sides of every pair and cancels in their ratio.
#pragma once

#include <functional>
#include <random>

#include "harness/sampler.hpp"

namespace memwall {

struct PairedSampling {
    Sampling a, b;  // equal numbers of samples; a[i] and b[i] were taken back to back
};

// Warms both up (alternating), then takes one sample of each per pair, which one first drawn
// from `rng` so neither side always follows the other. Stops, with the settings applied to each
// side, when both have min_samples and min_time and the 95% interval of the median log ratio of
// the pairs has a half-width of at most max_noise ("converged"), when either side reaches the
// timeout, or at max_samples pairs.
// `sampling`, when given, is called between the warm-up and the first pair, as take_samples does.
PairedSampling take_paired_samples(const std::function<double()>& a, const std::function<double()>& b,
                                   const SamplerSettings& s, std::mt19937_64& rng,
                                   const std::function<void()>& sampling = {});

}  // namespace memwall

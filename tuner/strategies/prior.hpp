// Everything guided may be told before it measures anything on the target: the device-
// independent counters of every configuration (CounterPrior), other devices' recordings of the
// same kernel (DevicePrior), and the configuration run untuned. Any may be missing; one without
// counters or recordings is no model prior.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "tuner/strategies/counter_prior.hpp"
#include "tuner/strategies/device_prior.hpp"

namespace memwall {

struct Prior {
    CounterPrior counters;
    std::vector<DevicePrior> devices;
    // The configuration the kernel runs untuned (live: the variant's default), measured first:
    // the search starts from what it has to beat, and never ends worse.
    std::optional<std::size_t> start;

    bool empty() const { return counters.empty() && devices.empty(); }
};

}  // namespace memwall

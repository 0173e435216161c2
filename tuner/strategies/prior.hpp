// Everything guided may be told before it measures anything on the target: the device-
// independent counters of every configuration (CounterPrior) and other devices' recordings of
// the same kernel (DevicePrior). Either may be missing; an empty Prior is no prior.
#pragma once

#include <vector>

#include "tuner/strategies/counter_prior.hpp"
#include "tuner/strategies/device_prior.hpp"

namespace memwall {

struct Prior {
    CounterPrior counters;
    std::vector<DevicePrior> devices;

    bool empty() const { return counters.empty() && devices.empty(); }
};

}  // namespace memwall

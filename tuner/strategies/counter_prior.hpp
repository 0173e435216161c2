// What a strategy may be told, before measuring anything, about configurations it has not
// evaluated: counters that are properties of the kernel's code and access stream, not of how fast
// it ran on a device: instruction counts, memory requests and requested sectors, and anything
// cuda-emu counts (it runs the CUDA source on the CPU, so it needs no GPU) or an analytic model
// gives. Traffic at the device's caches and DRAM, cycles, durations, throughputs and percentages
// are never part of it: they depend on the device, and some track the time itself.
#pragma once

#include <string>
#include <vector>

#include "metrics/counter.hpp"
#include "tuner/recorded_space.hpp"

namespace memwall {

struct CounterPrior {
    std::vector<std::string> names;
    std::vector<std::vector<double>> values;  // [configuration][counter], every configuration of the space

    bool empty() const { return names.empty(); }
};

// Whether `c` says what a configuration does (work, requests) rather than how the device did it.
bool is_device_independent(const Counter& c);

// The device-independent counters of a recorded space (empty when it has none). A recording
// has no counters for the configurations that failed; theirs are estimated from the others (an
// additive model of log counts over the parameters), so the prior does not tell which failed.
CounterPrior counter_prior_from(const RecordedSpace& recorded);

}  // namespace memwall

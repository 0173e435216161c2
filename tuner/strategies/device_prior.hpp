// What another device's recording of the same kernel says about each configuration of the
// target's space before anything is measured on the target: its time there (recorded, or, for a
// configuration it did not record or that uses a value it never tried, estimated from its main
// effects), and whether it failed there. Times transfer as a ranking, not as values: the guided
// model learns how the target's times relate to them, and how far to trust them at all.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tuner/recorded_space.hpp"

namespace memwall {

struct DevicePrior {
    enum class Source : std::uint8_t { recorded, estimated, failed };

    std::string device;
    std::string origin;               // the recording's file
    std::vector<double> log_seconds;  // [target configuration]
    std::vector<Source> source;       // [target configuration]; a failed one's time is estimated

    std::size_t count(Source s) const;
};

// `other` over the configurations of `target`. Parameters are matched by name and values by
// value; throws InputError (naming the file) when the names differ or when no recorded ok
// configuration of `other` lies in the target's space.
DevicePrior device_prior_from(const RecordedSpace& other, const TuningSpace& target);

}  // namespace memwall

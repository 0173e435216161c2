// A recorded space made up for tests: x, y, z with 6, 5 and 4 values; time (ms) is a bowl with
// its minimum 1 ms at (4, 1, 2); (x=5, y=4) is missing, as if constrained away, and x=0 with
// z=3 fails at run time. Every evaluation costs 1 s.
#pragma once

#include <cmath>

#include "tuner/recorded_space.hpp"

namespace memwall::testing {

inline RecordedSpace synthetic_space() {
    auto ints = [](int n) {
        std::vector<Value> v;
        for (int i = 0; i < n; ++i) v.emplace_back(std::int64_t{i});
        return v;
    };
    std::vector<Config> configs;
    RecordedSpace rs;
    rs.origin = "synthetic";
    rs.format = "synthetic";
    for (std::uint16_t x = 0; x < 6; ++x)
        for (std::uint16_t y = 0; y < 5; ++y)
            for (std::uint16_t z = 0; z < 4; ++z) {
                if (x == 5 && y == 4) continue;
                configs.push_back({x, y, z});
                Evaluation e;
                e.cost_seconds = 1;
                if (x == 0 && z == 3) {
                    e.status = EvalStatus::runtime_failed;
                    e.reason = "RuntimeFailedConfig";
                } else {
                    e.seconds = 1e-3 * (1 + 0.3 * (x - 4) * (x - 4) + 0.5 * std::abs(y - 1) + 0.2 * (z - 2) * (z - 2));
                }
                rs.results.push_back(e);
            }
    rs.space = TuningSpace({{"x", ints(6)}, {"y", ints(5)}, {"z", ints(4)}}, configs);
    return rs;
}

}  // namespace memwall::testing

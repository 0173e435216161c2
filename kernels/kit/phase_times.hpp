// The phases a CPU kernel times itself (spgemm's symbolic and numeric, lora's passes): each run
// laps a clock at the end of each phase, and the case stores each phase's median over the timed
// runs as phase.<name>.seconds, source timer (Instance::sampled_counters).
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "metrics/counter.hpp"

namespace memwall::kit {

class PhaseTimes {
  public:
    // Starts a run: its laps are added up per phase name (a phase run once per adapter is one phase).
    void start();
    // Ends phase `name`: the time since start() or the previous lap. Returns it in seconds.
    double lap(std::string_view name);
    // Each phase's median over the runs after the first (the checked run; warm-up runs are
    // outvoted by the median), in the order the phases first ran.
    std::vector<Counter> counters() const;

  private:
    using Clock = std::chrono::steady_clock;
    struct Phase {
        std::string name;
        std::vector<double> runs;
    };
    Clock::time_point last_{};
    std::size_t run_ = 0;  // runs started
    std::vector<Phase> phases_;
};

}  // namespace memwall::kit

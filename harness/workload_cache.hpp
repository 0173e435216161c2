// The workload of the problem being measured, rebuilt only when the problem changes (suites run
// problem-major, or interleaved with one workload alive at a time, so memory stays bounded).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "harness/sweep.hpp"

namespace memwall {

class WorkloadCache {
  public:
    // The workload of `problem` (the case's own, or a scaled one) in `c`'s family.
    const Workload& get(const PlannedCase& c, const Params& problem, std::uint64_t seed) {
        std::string key = c.family->name + problem.canonical();
        if (key != key_) {
            current_.reset();  // free the old inputs before allocating new ones
            current_ = c.family->make_workload(problem, seed);
            key_ = std::move(key);
        }
        return *current_;
    }

  private:
    std::string key_;
    std::unique_ptr<Workload> current_;
};

}  // namespace memwall

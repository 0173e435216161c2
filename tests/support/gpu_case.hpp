// What every GPU test asks of a prepared case of a cuda variant: a run over poisoned outputs
// matches the reference, and a timed run gives a positive time (CUDA events).
#pragma once

#include <gtest/gtest.h>

#include "core/catalogue.hpp"

namespace memwall::test {

inline void expect_checked_and_timed(Instance& inst) {
    inst.poison();
    inst.run();
    const Check ch = inst.check();
    EXPECT_TRUE(ch.ok) << ch.message;
    EXPECT_GT(inst.run_timed(), 0.0);
}

}  // namespace memwall::test

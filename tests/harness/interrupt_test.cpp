#include "harness/interrupt.hpp"

#include <gtest/gtest.h>

#include <csignal>

namespace memwall {
namespace {

TEST(InterruptScope, CtrlCSetsTheFlagAndANewScopeStartsClear) {
    {
        const InterruptScope scope;
        EXPECT_FALSE(stop_requested);
        std::raise(SIGINT);  // handled: the process goes on
        EXPECT_TRUE(stop_requested);
    }
    // A later session in the same process (run_cli called again) is not stopped by the last one.
    const InterruptScope next;
    EXPECT_FALSE(stop_requested);
}

}  // namespace
}  // namespace memwall

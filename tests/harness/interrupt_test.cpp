#include "harness/interrupt.hpp"

#include <gtest/gtest.h>

#include <csignal>

#include "core/errors.hpp"

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

// SIGTERM and SIGHUP are interrupts like Ctrl-C: `timeout`, Slurm and CI runners send SIGTERM to
// the process group, a closed terminal SIGHUP. Before, SIGHUP killed memwall with nothing ended.
TEST(InterruptScope, SigtermAndSighupAreInterruptsToo) {
    for (const int sig : {SIGTERM, SIGHUP}) {
        const InterruptScope scope;
        std::raise(sig);
        EXPECT_TRUE(stop_requested) << sig;
        EXPECT_TRUE(is_interrupt_signal(sig));
    }
    EXPECT_FALSE(is_interrupt_signal(SIGSEGV));  // a crash stays a failure
    EXPECT_FALSE(is_interrupt_signal(SIGKILL));  // the OOM killer's, or a case timeout's
}

// A scope inside another (ci --baseline-build's inside ci's) keeps what the outer one heard.
TEST(InterruptScope, AnInnerScopeKeepsAnInterruptAlreadyHeard) {
    const InterruptScope outer;
    std::raise(SIGTERM);
    const InterruptScope inner;
    EXPECT_TRUE(stop_requested);
    EXPECT_THROW(throw_if_interrupted("planning"), Interrupted);
}

}  // namespace
}  // namespace memwall

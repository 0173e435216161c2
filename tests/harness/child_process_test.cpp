#include "harness/child_process.hpp"

#include <sys/wait.h>

#include <gtest/gtest.h>

using namespace memwall;
using Clock = ChildProcess::Clock;

TEST(ChildProcess, LinesGoBothWays) {
    ChildProcess p({"/bin/sh", "-c", "read x; echo got $x; echo second"});
    p.send("hello");
    EXPECT_EQ(p.receive(), "got hello");
    EXPECT_EQ(p.receive(), "second");
}

TEST(ChildProcess, ADeadlineReturnsNothingAndTheChildCanBeKilled) {
    ChildProcess p({"/bin/sh", "-c", "exec sleep 30"});
    EXPECT_EQ(p.receive(Clock::now() + std::chrono::milliseconds(50)), std::nullopt);
    EXPECT_EQ(p.kill(), "was killed by signal 9 (SIGKILL)");
}

TEST(ChildProcess, AChildThatEndsSaysHow) {
    ChildProcess p({"/bin/sh", "-c", "exit 3"});
    try {
        p.receive();
        ADD_FAILURE() << "no ChildGone";
    } catch (const ChildGone& e) {
        EXPECT_EQ(e.how, "exited with status 3");
    }
    ChildProcess q({"/bin/sh", "-c", "kill -SEGV $$"});
    try {
        q.receive(Clock::now() + std::chrono::seconds(60));
        ADD_FAILURE() << "no ChildGone";
    } catch (const ChildGone& e) {
        EXPECT_EQ(e.how, "was killed by signal 11 (SIGSEGV)");
    }
}

TEST(ChildProcess, TheMemoryLimitIsTheChildsDataLimit) {
    ChildProcess p({"/bin/sh", "-c", "ulimit -d"}, {.memory_limit = 64 << 20});
    EXPECT_EQ(p.receive(), "65536");  // KiB
}

TEST(ChildProcess, DescribesExits) {
    EXPECT_EQ(describe_exit(0), "exited with status 0");
    EXPECT_EQ(describe_exit(W_EXITCODE(2, 0)), "exited with status 2");
    EXPECT_EQ(describe_exit(W_EXITCODE(0, 6)), "was killed by signal 6 (SIGABRT)");
}

#include "core/owner.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "core/machine.hpp"

using namespace memwall;

TEST(Owner, ThisProcessIsNotGone) {
    const Owner me = Owner::self();
    EXPECT_EQ(me.host, host_name());
    EXPECT_EQ(me.pid, static_cast<std::int64_t>(getpid()));
    EXPECT_FALSE(me.start.empty());
    EXPECT_FALSE(me.gone());
}

TEST(Owner, AnEndedProcessIsGone) {
    const pid_t child = fork();
    if (child == 0) _exit(0);
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_TRUE((Owner{host_name(), child, "x/1"}.gone()));
}

TEST(Owner, AReusedPidIsNotTheOwner) {
    Owner me = Owner::self();
    me.start += "0";  // the same pid, started at another time
    EXPECT_TRUE(me.gone());
}

TEST(Owner, NothingIsKnownOfAnotherHost) {
    Owner other = Owner::self();
    other.host += "-elsewhere";
    other.start = "x/1";
    EXPECT_FALSE(other.gone());
}

// Cases measured in worker processes (memwall_with_faults case-worker): a crash, a hang and a
// runaway allocation each cost their case alone, and the worker is replaced for the next.
#include "harness/isolated_measurer.hpp"

#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "harness/interrupt.hpp"
#include "faults_family.hpp"

using namespace memwall;

namespace {

struct Isolated : ::testing::Test {
    Isolated() { test::register_faults(catalogue); }
    PlannedCase planned(const char* variant) const {
        Params problem;
        problem.set("n", std::int64_t{1000});
        return {&catalogue.family("faults"), &catalogue.variant("faults", variant, Backend::cpu), problem, {}};
    }
    static MeasureOptions quick() {
        MeasureOptions o;
        o.sampler.min_samples = 2;
        o.sampler.min_time = 0;
        o.case_timeout = 1.5;
        return o;
    }
    Catalogue catalogue;
    IsolatedMeasurer measurer{{.worker_command = {MEMWALL_FAULTS_BINARY, "case-worker"}, .memory_limit = 128 << 20}};
};

}  // namespace

TEST_F(Isolated, ACorrectCaseIsMeasuredInTheWorker) {
    const CaseRecord r = measurer.measure(planned("ok"), 1, quick());
    EXPECT_EQ(r.status, CaseStatus::ok) << r.message;
    EXPECT_EQ(r.key.variant, "ok");
    ASSERT_EQ(r.samples.size(), 1u);
    EXPECT_GE(r.samples[0].size(), 2u);
    EXPECT_EQ(r.summary.n, r.samples[0].size());
    EXPECT_FALSE(r.counters.empty());
    EXPECT_EQ(measurer.stats().worker_starts, 1u);
}

TEST_F(Isolated, ACaseTimedBesideAnAnchorBringsBackTheAnchorsSamples) {
    MeasureOptions opt = quick();
    opt.anchor = Params{};  // the variant's only configuration
    const CaseRecord r = measurer.measure(planned("ok"), 1, opt);
    ASSERT_EQ(r.status, CaseStatus::ok) << r.message;
    ASSERT_EQ(r.samples.size(), 1u);
    EXPECT_GE(r.samples[0].size(), 2u);
    EXPECT_EQ(r.anchor_samples.size(), r.samples[0].size());
}

TEST_F(Isolated, ASegfaultFailsItsCaseAndTheNextCaseGetsANewWorker) {
    std::vector<std::string> stages;
    MeasureOptions opt = quick();
    opt.stage = [&](std::string_view s) { stages.emplace_back(s); };
    const CaseRecord crashed = measurer.measure(planned("segfault"), 1, opt);
    EXPECT_EQ(crashed.status, CaseStatus::failed);
    EXPECT_EQ(crashed.message, "its process was killed by signal 11 (SIGSEGV) in its check stage");
    EXPECT_EQ(stages, (std::vector<std::string>{"set-up", "check"}));
    EXPECT_TRUE(crashed.samples.empty());
    const CaseRecord next = measurer.measure(planned("ok"), 1, quick());
    EXPECT_EQ(next.status, CaseStatus::ok) << next.message;
    EXPECT_EQ(measurer.stats().worker_starts, 2u);
    EXPECT_EQ(measurer.stats().cases, 2u);
}

TEST_F(Isolated, AHangInSetUpIsATimeout) {
    const CaseRecord r = measurer.measure(planned("hang_setup"), 1, quick());
    EXPECT_EQ(r.status, CaseStatus::timeout);
    EXPECT_EQ(r.message, "over the case timeout of 1.5 s in its set-up stage: its process was killed");
}

// SIGTERM to the process group (timeout, Slurm, a CI runner) kills the worker too: the run is
// being stopped, so its case is Interrupted and not stored (it was stored failed, and skipped by
// --resume).
TEST_F(Isolated, AWorkerKilledByTheGroupsSigtermIsAnInterruptNotAFailure) {
    ASSERT_TRUE(setpgid(0, 0) == 0 || getpgrp() == getpid());  // a group of this test and its worker only
    const InterruptScope interrupts;                           // this process lives on, as memwall does
    MeasureOptions opt = quick();
    opt.case_timeout = 60;
    opt.stage = [](std::string_view s) {
        if (s == "set-up") kill(0, SIGTERM);
    };
    EXPECT_THROW(measurer.measure(planned("hang_setup"), 1, opt), Interrupted);
    EXPECT_TRUE(stop_requested);
}

// The same signal can reach the first worker while it starts: the command is being stopped,
// which is not a worker that cannot start.
TEST(IsolatedStart, AWorkerKilledByAnInterruptWhileStartingIsAnInterrupt) {
    IsolatedMeasurer m({.worker_command = {"/bin/sh", "-c", "kill -TERM $$"}});
    EXPECT_THROW(m.ready(), Interrupted);
    EXPECT_TRUE(stop_requested);
}

TEST_F(Isolated, AnAllocationPastTheLimitFailsItsCaseAndKeepsTheWorker) {
    const CaseRecord r = measurer.measure(planned("unbounded_alloc"), 1, quick());
    EXPECT_EQ(r.status, CaseStatus::failed);
    EXPECT_EQ(r.message, "out of memory: an allocation failed (std::bad_alloc), over the case memory limit of 128 MiB");
    EXPECT_EQ(measurer.measure(planned("ok"), 1, quick()).status, CaseStatus::ok);
    EXPECT_EQ(measurer.stats().worker_starts, 1u);
}

TEST(IsolatedStart, AWorkerThatCannotStartIsOneClearError) {
    IsolatedMeasurer m({.worker_command = {"/nonexistent/memwall", "case-worker"}});
    try {
        m.ready();
        ADD_FAILURE() << "started";
    } catch (const InputError& e) {
        EXPECT_NE(
            std::string(e.what()).find("cannot start a case worker (/nonexistent/memwall exited with status 127)"),
            std::string::npos)
            << e.what();
    }
}

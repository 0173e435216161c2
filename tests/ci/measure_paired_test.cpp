#include "ci/measure_paired.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"

using namespace memwall;

namespace {

// An arm whose case i takes `base_time[i]` seconds, and fails its check where told.
struct FakeArm : Arm {
    std::vector<double> time;
    std::vector<CaseStatus> status;
    std::vector<std::size_t> prepared;  // the order cases were prepared in
    std::size_t current = 0;

    CaseRecord prepare(std::size_t i) override {
        prepared.push_back(i);
        current = i;
        CaseRecord r;
        r.key = {"attention", "naive", "cpu", "{\"case\":" + std::to_string(i) + "}", "{}"};
        r.status = status.empty() ? CaseStatus::ok : status[i];
        r.message = r.status == CaseStatus::ok ? "rel. L2 error 1e-07" : "rel. L2 error 0.5";
        return r;
    }
    double sample() override { return time[current]; }
};

PairedPlan plan(std::size_t cases, int reps) {
    PairedPlan p;
    p.cases = cases;
    p.repetitions = reps;
    p.sampler.warmup_runs = 0;
    p.sampler.min_samples = 3;
    p.sampler.min_time = 0;
    return p;
}

}  // namespace

TEST(MeasureTogether, EveryRepetitionIsAPairOfBothArms) {
    FakeArm base, cand;
    base.time = {1e-3, 2e-3, 3e-3};
    cand.time = {1.1e-3, 2e-3, 3e-3};
    const PairedRuns t = measure_paired(base, cand, plan(3, 4));
    ASSERT_EQ(t.base.size(), 3u);
    EXPECT_FALSE(t.interrupted);
    EXPECT_EQ(base.prepared, cand.prepared);  // both arms on the same case at a time
    for (std::size_t i = 0; i < 3; ++i) {
        ASSERT_EQ(t.base[i].samples.size(), 4u);
        ASSERT_EQ(t.candidate[i].samples.size(), 4u);
        for (std::size_t r = 0; r < 4; ++r) EXPECT_EQ(t.base[i].samples[r].size(), t.candidate[i].samples[r].size());
        EXPECT_EQ(t.base[i].status, CaseStatus::ok);
        EXPECT_DOUBLE_EQ(t.base[i].summary.median, base.time[i]);
        EXPECT_DOUBLE_EQ(t.candidate[i].summary.median, cand.time[i]);
    }
    EXPECT_EQ(t.base[1].key.problem, "{\"case\":1}");
}

TEST(MeasureTogether, InterleavingShufflesRepetitionsAcrossCases) {
    FakeArm base, cand;
    base.time = cand.time = {1e-3, 1e-3, 1e-3};
    measure_paired(base, cand, plan(3, 4));
    EXPECT_NE(base.prepared, (std::vector<std::size_t>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}));
    PairedPlan in_order = plan(3, 4);
    in_order.interleave = false;
    FakeArm b2, c2;
    b2.time = c2.time = base.time;
    measure_paired(b2, c2, in_order);
    EXPECT_EQ(b2.prepared, (std::vector<std::size_t>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}));
}

TEST(MeasureTogether, AFailedCheckOnOneArmIsRecordedAndTimesNeither) {
    FakeArm base, cand;
    base.time = cand.time = {1e-3, 1e-3};
    cand.status = {CaseStatus::ok, CaseStatus::wrong_result};
    const PairedRuns t = measure_paired(base, cand, plan(2, 3));
    EXPECT_EQ(t.candidate[1].status, CaseStatus::wrong_result);
    EXPECT_TRUE(t.candidate[1].samples.empty());
    EXPECT_TRUE(t.base[1].samples.empty());  // nothing measured beside a failure
    EXPECT_EQ(t.base[1].status, CaseStatus::ok);
    EXPECT_EQ(t.base[0].samples.size(), 3u);
}

TEST(MeasureTogether, AStopEndsAfterTheUnitInFlight) {
    FakeArm base, cand;
    base.time = cand.time = {1e-3, 1e-3};
    std::atomic<bool> stop{false};
    std::size_t units = 0;
    const PairedRuns t = measure_paired(
        base, cand, plan(2, 5),
        [&](std::size_t done, std::size_t total) {
            EXPECT_EQ(total, 10u);
            units = done;
            if (done == 3) stop = true;
        },
        &stop);
    EXPECT_TRUE(t.interrupted);
    EXPECT_EQ(units, 3u);
    EXPECT_EQ(t.base[0].samples.size() + t.base[1].samples.size(), 3u);
}

TEST(ProblemScale, ParsesAndScalesAWholeNumberOfAnAxis) {
    const ProblemScale s = ProblemScale::parse("heads=1.1");
    EXPECT_EQ(s.axis, "heads");
    EXPECT_DOUBLE_EQ(s.factor, 1.1);
    Params p;
    p.set("heads", std::int64_t{20});
    p.set("seq_q", std::int64_t{256});
    const Params scaled = s.apply(p);
    EXPECT_EQ(scaled.integer("heads"), 22);
    EXPECT_EQ(scaled.integer("seq_q"), 256);
    EXPECT_EQ(ProblemScale{}.apply(p).canonical(), p.canonical());  // no scale: the problem itself
    p.set("heads", std::int64_t{16});
    EXPECT_THROW(s.apply(p), UsageError);  // 17.6 heads
    for (const char* bad : {"heads", "=1.1", "heads=", "heads=x", "heads=0", "heads=-1", "heads=1.1x"})
        EXPECT_THROW(ProblemScale::parse(bad), UsageError) << bad;
}

#include "harness/sampler.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"

using namespace memwall;

namespace {
// A fake execution returning preset times in turn, and counting calls.
struct Script {
    std::vector<double> times;
    std::size_t calls = 0;
    double operator()() { return times[calls++ % times.size()]; }
};
}  // namespace

TEST(Sampler, StopsWhenQuietAfterMinimums) {
    Script s{{0.01}};
    SamplerSettings set;
    set.warmup_runs = 2;
    set.min_samples = 10;
    set.min_time = 0.05;
    auto r = take_samples(std::ref(s), set);
    EXPECT_EQ(r.stop_reason, "converged");
    EXPECT_EQ(r.seconds.size(), 10u);  // min_samples binds, min_time (5 samples) does not
    EXPECT_EQ(s.calls, 12u);           // warm-up runs are not samples
}

TEST(Sampler, MinTimeBindsForFastCases) {
    Script s{{0.001}};
    SamplerSettings set;
    set.min_samples = 5;
    set.min_time = 0.0195;  // 20 samples of 1 ms, clear of rounding in the sum
    auto r = take_samples(std::ref(s), set);
    EXPECT_EQ(r.seconds.size(), 20u);
}

TEST(Sampler, NoisyCasesStopAtTheTimeout) {
    Script s{{0.01, 0.03, 0.02, 0.05, 0.015}};
    SamplerSettings set;
    set.min_samples = 5;
    set.min_time = 0;
    set.max_noise = 0.001;
    set.timeout = 0.5;
    auto r = take_samples(std::ref(s), set);
    EXPECT_EQ(r.stop_reason, "time limit");
    double total = 0;
    for (double t : r.seconds) total += t;
    EXPECT_GE(total, 0.5);
    EXPECT_LT(total, 0.55);
}

TEST(Sampler, MaxSamplesCaps) {
    Script s{{1e-6, 3e-6}};
    SamplerSettings set;
    set.min_samples = 1;
    set.max_samples = 7;
    set.max_noise = 1e-9;
    auto r = take_samples(std::ref(s), set);
    EXPECT_EQ(r.seconds.size(), 7u);
    EXPECT_EQ(r.stop_reason, "max samples");
}

TEST(Sampler, SettingsAreValidated) {
    SamplerSettings set;
    set.min_samples = 0;
    EXPECT_THROW(set.validate(), UsageError);
    set = {};
    set.timeout = 0;
    EXPECT_THROW(set.validate(), UsageError);
    set = {};
    set.max_noise = -1;
    EXPECT_THROW(set.validate(), UsageError);
}

TEST(Sampler, ATimeLimitBeforeTheMinimumSamplesIsSaid) {
    Script s{{0.2}};
    SamplerSettings set;
    set.min_samples = 50;
    set.timeout = 0.5;
    auto r = take_samples(std::ref(s), set);
    EXPECT_EQ(r.stop_reason, "time limit before min samples");
    EXPECT_LT(r.seconds.size(), 50u);
}

namespace {
// A fake execution whose threads waited to run for waits[i] seconds in its i-th call, with the
// cumulative wait as the run-delay source reads it.
struct Waiting {
    double time;
    std::vector<double> waits;
    std::size_t calls = 0;
    double waited = 0;
    double operator()() {
        waited += waits[calls++ % waits.size()];
        return time;
    }
};
}  // namespace

TEST(Sampler, SamplesWhoseThreadsWaitedAreDiscarded) {
    // Every other sample waited for half its time; warm-up is the first call (not a sample).
    Waiting w{0.01, {0.0, 0.005}};
    SamplerSettings set;
    set.warmup_runs = 1;
    set.min_samples = 5;
    set.min_time = 0;
    auto r = take_samples(std::ref(w), set, {}, [&w] { return w.waited; });
    EXPECT_EQ(r.stop_reason, "converged");
    EXPECT_EQ(r.seconds.size(), 5u);
    EXPECT_EQ(r.discarded, 5);  // samples 1, 3, ... of 10 taken (calls 2, 4, ... waited)
    EXPECT_TRUE(r.busy.empty()) << r.busy;
}

TEST(Sampler, AWaitBelowATenthOfTheSampleIsKept) {
    Waiting w{0.01, {0.0009}};
    SamplerSettings set;
    set.min_samples = 4;
    set.min_time = 0;
    auto r = take_samples(std::ref(w), set, {}, [&w] { return w.waited; });
    EXPECT_EQ(r.discarded, 0);
    EXPECT_EQ(r.seconds.size(), 4u);
}

TEST(Sampler, ACaseLeftWithTooFewSamplesIsFlaggedBusy) {
    // Every sample's threads waited for most of it, as an OpenMP team does on a host whose CPUs
    // other processes hold: the times are the other processes', and the case says so.
    Waiting w{0.016, {0.015}};
    SamplerSettings set;
    set.min_samples = 10;
    set.timeout = 0.5;
    auto r = take_samples(std::ref(w), set, {}, [&w] { return w.waited; });
    EXPECT_EQ(r.stop_reason, "host busy");
    EXPECT_EQ(r.discarded, 32);        // 32 x 16 ms reach the timeout
    EXPECT_EQ(r.seconds.size(), 32u);  // none kept: the discarded times, flagged, are shown
    EXPECT_NE(r.busy.find("32 of 32 samples discarded"), std::string::npos) << r.busy;
    EXPECT_NE(r.busy.find("94%"), std::string::npos) << r.busy;
}

TEST(Sampler, WithoutARunDelaySourceEverySampleCounts) {
    Waiting w{0.01, {0.01}};
    SamplerSettings set;
    set.min_samples = 3;
    set.min_time = 0;
    auto r = take_samples(std::ref(w), set);
    EXPECT_EQ(r.discarded, 0);
    EXPECT_EQ(r.stop_reason, "converged");
}

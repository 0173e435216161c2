#include "tuner/strategies/device_prior.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.hpp"
#include "tests/support/synthetic_space.hpp"

namespace memwall {
namespace {

using Source = DevicePrior::Source;

// The synthetic kernel recorded on another device: its parameters in another order (z, x, y),
// x's values written as floating-point numbers, y without its last value, one configuration not
// recorded and one that failed there only.
RecordedSpace other_device() {
    const RecordedSpace target = testing::synthetic_space();
    RecordedSpace other;
    other.origin = "other.json";
    other.device = "other GPU";
    std::vector<Value> zs, xs, ys;
    for (int i = 0; i < 4; ++i) zs.emplace_back(std::int64_t{i});
    for (int i = 0; i < 6; ++i) xs.emplace_back(static_cast<double>(i));
    for (int i = 0; i < 4; ++i) ys.emplace_back(std::int64_t{i});
    std::vector<Config> configs;
    for (std::size_t id = 0; id < target.space.size(); ++id) {
        const Config& c = target.space.config(id);
        if (c[1] == 4 || (c[0] == 2 && c[1] == 2 && c[2] == 2)) continue;
        configs.push_back({c[2], c[0], c[1]});
        Evaluation e = target.results[id];
        e.seconds *= 3;  // a slower device, the same ranking
        if (c[0] == 1 && c[1] == 1 && c[2] == 1) {
            e.status = EvalStatus::runtime_failed;
            e.seconds = 0;
        }
        other.results.push_back(e);
    }
    other.space = TuningSpace({{"z", zs}, {"x", xs}, {"y", ys}}, configs);
    return other;
}

TEST(DevicePrior, MatchesParametersByNameAndValuesByValue) {
    const RecordedSpace target = testing::synthetic_space();
    const DevicePrior prior = device_prior_from(other_device(), target.space);
    EXPECT_EQ(prior.device, "other GPU");
    ASSERT_EQ(prior.log_seconds.size(), target.space.size());
    for (std::size_t id = 0; id < target.space.size(); ++id) {
        const Config& c = target.space.config(id);
        const Evaluation& here = target.results[id];
        if (c[1] == 4 || (c[0] == 2 && c[1] == 2 && c[2] == 2)) {
            EXPECT_EQ(prior.source[id], Source::estimated) << target.space.label(id);
        } else if (!here.ok() || (c[0] == 1 && c[1] == 1 && c[2] == 1)) {
            EXPECT_EQ(prior.source[id], Source::failed) << target.space.label(id);
        } else {
            ASSERT_EQ(prior.source[id], Source::recorded) << target.space.label(id);
            EXPECT_NEAR(prior.log_seconds[id], std::log(3 * here.seconds), 1e-12);
        }
    }
    EXPECT_EQ(prior.count(Source::recorded) + prior.count(Source::failed) + prior.count(Source::estimated),
              target.space.size());
}

TEST(DevicePrior, EstimatesWhatTheOtherDeviceDidNotRecordFromItsMainEffects) {
    const RecordedSpace target = testing::synthetic_space();
    const DevicePrior prior = device_prior_from(other_device(), target.space);
    // y = 4 was never tried there: the estimate follows x and z as the recording does.
    const std::size_t near = *target.space.find({4, 4, 2}), far = *target.space.find({0, 4, 0});
    EXPECT_EQ(prior.source[near], Source::estimated);
    EXPECT_LT(prior.log_seconds[near], prior.log_seconds[far]);
    // A configuration left out there sits between its recorded neighbours' times.
    const std::size_t hole = *target.space.find({2, 2, 2});
    EXPECT_GT(prior.log_seconds[hole], std::log(3e-3) - 0.5);
    EXPECT_LT(prior.log_seconds[hole], std::log(3e-3 * 3));
}

TEST(DevicePrior, RejectsARecordingOfOtherParametersOrOfNothingInTheSpace) {
    const RecordedSpace target = testing::synthetic_space();
    RecordedSpace renamed = other_device();
    std::vector<Parameter> ps = renamed.space.parameters();
    ps[0].name = "w";
    std::vector<Config> configs;
    for (std::size_t id = 0; id < renamed.space.size(); ++id) configs.push_back(renamed.space.config(id));
    renamed.space = TuningSpace(ps, configs);
    try {
        device_prior_from(renamed, target.space);
        FAIL() << "no InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("other.json"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("same parameters"), std::string::npos) << e.what();
    }
    RecordedSpace failed = other_device();
    for (Evaluation& e : failed.results) e.status = EvalStatus::runtime_failed;
    EXPECT_THROW(device_prior_from(failed, target.space), InputError);
}

}  // namespace
}  // namespace memwall

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tuner/additive_model.hpp"
#include "tuner/forest.hpp"
#include "tuner/time_predictor.hpp"

namespace memwall {
namespace {

// All configurations of a 6 x 5 grid, optionally leaving some out.
std::vector<Config> grid(bool (*keep)(int, int)) {
    std::vector<Config> g;
    for (std::uint16_t a = 0; a < 6; ++a)
        for (std::uint16_t b = 0; b < 5; ++b)
            if (keep(a, b)) g.push_back({a, b});
    return g;
}

std::vector<const Config*> pointers(const std::vector<Config>& cs) {
    std::vector<const Config*> p;
    for (const auto& c : cs) p.push_back(&c);
    return p;
}

TEST(Forest, LearnsAStep) {
    const auto rows = grid([](int, int) { return true; });
    std::vector<double> y;
    for (const auto& c : rows) y.push_back(c[0] >= 3 ? 10.0 : 1.0);  // only a matters
    Forest f({6, 5});
    std::mt19937_64 rng(1);
    f.fit(pointers(rows), y, rng);
    // A tree whose bootstrap sample misses a = 2 may put the step between 1 and 2; the forest
    // as a whole still places it.
    double spread = 0;
    for (const auto& c : rows) {
        const Prediction p = f.predict(c);
        EXPECT_NEAR(p.mean, c[0] >= 3 ? 10.0 : 1.0, 1.0);
        spread += p.sd;
    }
    EXPECT_LT(spread / static_cast<double>(rows.size()), 0.5);
}

TEST(AdditiveModel, RecoversMainEffectsFromPartOfTheGrid) {
    auto f = [](const Config& c) { return 0.5 * c[0] - 0.2 * c[1] * c[1]; };
    const auto rows = grid([](int a, int b) { return (a + b) % 2 == 0; });  // half the grid
    std::vector<double> y;
    for (const auto& c : rows) y.push_back(f(c));
    AdditiveModel m({6, 5});
    m.fit(pointers(rows), y);
    // Smoothing and shrinkage bias the effects a little; the ranking must hold everywhere.
    for (const auto& c : grid([](int a, int b) { return (a + b) % 2 == 1; })) EXPECT_NEAR(m.predict(c), f(c), 0.35);
    EXPECT_GT(m.predict({5, 0}), m.predict({0, 4}));
}

TEST(AdditiveModel, IsLessSureOfValuesNeverMeasured) {
    // Only a = 0 and a = 1 measured, with b = 0: the model has seen nothing of a = 5.
    const std::vector<Config> rows{{0, 0}, {1, 0}, {0, 0}, {1, 0}};
    const std::vector<double> y{1.0, 2.0, 1.1, 2.1};
    AdditiveModel m({6, 5});
    m.fit(pointers(rows), y);
    EXPECT_GT(m.sd({5, 0}), m.sd({1, 0}));
    EXPECT_LT(m.predict({0, 0}), m.predict({1, 0}));
}

// A memory-bound kernel: bytes = 1000 * 2^a * (b + 1), moved at 1 GB/s, so time is bytes / 1e9.
struct RooflineKernel {
    TuningSpace space;
    Trace trace;

    RooflineKernel() {
        std::vector<Value> as, bs;
        for (int i = 0; i < 6; ++i) as.emplace_back(std::int64_t{i});
        for (int i = 0; i < 5; ++i) bs.emplace_back(std::int64_t{i});
        space = TuningSpace({{"a", as}, {"b", bs}}, grid([](int, int) { return true; }));
        // Measure one parameter at a time from (0, 0): ten configurations of thirty.
        for (std::size_t id = 0; id < space.size(); ++id) {
            const Config& c = space.config(id);
            if (c[0] != 0 && c[1] != 0) continue;
            TraceEntry e;
            e.config = id;
            e.evaluation.seconds = bytes(c) / 1e9;
            if (with_counters) e.evaluation.counters.push_back({"bytes.dram", bytes(c), "B", CounterSource::cupti});
            trace.entries.push_back(e);
        }
    }
    static double bytes(const Config& c) { return 1000.0 * std::pow(2.0, c[0]) * (c[1] + 1); }
    static inline bool with_counters = true;
};

double error_at_far_corner(bool with_counters) {
    RooflineKernel::with_counters = with_counters;
    RooflineKernel k;
    History h(k.space, k.trace);
    TimePredictor m(k.space);
    std::mt19937_64 rng(3);
    m.fit(h, rng);
    EXPECT_EQ(m.bound_counters().empty(), !with_counters);
    const Config corner{5, 4};  // never measured, nor anything near it
    return std::abs(m.predict(corner).mean - std::log(RooflineKernel::bytes(corner) / 1e9));
}

TEST(TimePredictor, CountersPredictWhereTimesAloneCannot) {
    // The bytes' logarithm is additive in the parameters, so their model extrapolates to the
    // far corner, and the roofline bound carries the time there.
    EXPECT_LT(error_at_far_corner(true), 0.5);
    EXPECT_GT(error_at_far_corner(false), 1.5);
}

// A kernel whose time is its instruction count at 1 G/s, given in a prior with a count that does
// not matter (requests): measured near one corner, the model is asked about the far one.
struct PriorKernel {
    TuningSpace space;
    Prior prior;
    Trace trace;

    PriorKernel() {
        std::vector<Value> as, bs;
        for (int i = 0; i < 6; ++i) as.emplace_back(std::int64_t{i});
        for (int i = 0; i < 5; ++i) bs.emplace_back(std::int64_t{i});
        space = TuningSpace({{"a", as}, {"b", bs}}, grid([](int, int) { return true; }));
        prior.counters.names = {"inst", "requests"};
        for (std::size_t id = 0; id < space.size(); ++id) {
            const Config& c = space.config(id);
            prior.counters.values.push_back({instructions(c), 100.0 * (c[1] + 1)});
            if (c[0] + c[1] > 2) continue;
            TraceEntry e;
            e.config = id;
            e.evaluation.seconds = instructions(c) / 1e9;
            trace.entries.push_back(e);
        }
    }
    static double instructions(const Config& c) { return 1000.0 * std::pow(2.0, c[0]); }
};

TEST(TimePredictor, APriorStartsFromTheLeastWork) {
    const PriorKernel k;
    const TimePredictor m(k.space, &k.prior);
    ASSERT_TRUE(m.has_prior());
    const std::size_t least = *k.space.find({0, 0});
    for (std::size_t id = 0; id < k.space.size(); ++id) {
        if (id != least) {
            EXPECT_LT(m.log_work(least), m.log_work(id));
        }
    }
    EXPECT_FALSE(TimePredictor(k.space).has_prior());
}

TEST(TimePredictor, APriorLearnsWhichCountCostsTime) {
    const PriorKernel k;
    History h(k.space, k.trace);
    TimePredictor m(k.space, &k.prior);
    std::mt19937_64 rng(3);
    m.fit(h, rng);
    const Config corner{5, 4};
    EXPECT_NEAR(m.predict(corner).mean, std::log(PriorKernel::instructions(corner) / 1e9), 0.5);
    // requests cost nothing: b barely moves the prediction
    EXPECT_NEAR(m.predict({5, 0}).mean, m.predict(corner).mean, 0.3);
    EXPECT_THROW(m.predict(Config{6, 0}), std::invalid_argument);
}

// Fits as the guided strategy does, after each measurement, so each is scored out of sample.
double prior_weight_after(const PriorKernel& k, const Prior& prior) {
    TimePredictor m(k.space, &prior);
    std::mt19937_64 rng(5);
    Trace prefix;
    for (const TraceEntry& e : k.trace.entries) {
        prefix.entries.push_back(e);
        const History h(k.space, prefix);
        m.fit(h, rng);
    }
    return m.prior_weight();
}

TEST(TimePredictor, APriorKeepsItsWeightAsFarAsItPredictsTheMeasurements) {
    const PriorKernel k;
    EXPECT_DOUBLE_EQ(TimePredictor(k.space, &k.prior).prior_weight(), 1.0);  // nothing scored yet
    EXPECT_DOUBLE_EQ(TimePredictor(k.space).prior_weight(), 0.0);
    EXPECT_GT(prior_weight_after(k, k.prior), 0.7);
    // Counts that have nothing to do with the time (scrambled over the configurations): the
    // prior loses to the model that ignores it.
    Prior scrambled = k.prior;
    for (std::size_t id = 0; id < k.space.size(); ++id)
        scrambled.counters.values[id] = k.prior.counters.values[(id * 7) % k.space.size()];
    EXPECT_LT(prior_weight_after(k, scrambled), 0.3);
}

}  // namespace
}  // namespace memwall

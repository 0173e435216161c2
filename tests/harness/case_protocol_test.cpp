#include "harness/case_protocol.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "faults_family.hpp"

using namespace memwall;

namespace {

struct Fixture : ::testing::Test {
    Fixture() { test::register_faults(catalogue); }
    Catalogue catalogue;
};

}  // namespace

using CaseProtocol = Fixture;

TEST_F(CaseProtocol, ARequestNamesTheSameCaseOnTheOtherSide) {
    const Family& f = catalogue.family("faults");
    Params problem;
    problem.set("n", std::int64_t{1000});
    const PlannedCase c{&f, &catalogue.variant("faults", "segfault", Backend::cpu), problem, {}};
    MeasureOptions opt;
    opt.sampler.min_samples = 7;
    opt.case_timeout = 3.5;
    const CaseRequest r = decode_case_request(encode_case_request(c, 42, opt), catalogue);
    EXPECT_EQ(r.planned.family, c.family);
    EXPECT_EQ(r.planned.variant, c.variant);
    EXPECT_EQ(r.planned.problem, problem);
    EXPECT_EQ(r.seed, 42u);
    EXPECT_EQ(r.options.sampler.min_samples, 7);
    EXPECT_DOUBLE_EQ(r.options.case_timeout, 3.5);
}

TEST_F(CaseProtocol, ARequestCarriesItsAnchorWhenItHasOne) {
    const Family& f = catalogue.family("faults");
    Params problem;
    problem.set("n", std::int64_t{1000});
    const PlannedCase c{&f, &catalogue.variant("faults", "ok", Backend::cpu), problem, {}};
    MeasureOptions opt;
    EXPECT_FALSE(decode_case_request(encode_case_request(c, 1, opt), catalogue).options.anchor);
    Params anchor;
    anchor.set("Br", std::int64_t{32});
    opt.anchor = anchor;
    EXPECT_EQ(decode_case_request(encode_case_request(c, 1, opt), catalogue).options.anchor, anchor);
}

TEST_F(CaseProtocol, BadRequestsAreRefused) {
    EXPECT_THROW(decode_case_request("not json", catalogue), InputError);
    EXPECT_THROW(decode_case_request(R"({"family":"faults"})", catalogue), InputError);
    EXPECT_THROW(decode_case_request(R"({"family":"nope","variant":"ok","backend":"cpu","problem":{},"config":{},)"
                                     R"("seed":1,"sampler":{},"case_timeout":1})",
                                     catalogue),
                 std::exception);
}

TEST(CaseResult, RoundTripsStatusSamplesAndCounters) {
    CaseRecord r;
    r.status = CaseStatus::ok;
    r.message = "rel. L2 error 0";
    r.samples = {{1e-3, 2e-3, 3e-3}, {4e-3}};
    r.counters = {{"flops", 1e6, "FLOP", CounterSource::model}, {"bytes.dram", std::nan(""), "B", CounterSource::emu}};
    CaseRecord back;
    EXPECT_DOUBLE_EQ(decode_case_result(encode_case_result(r, 0.25), back), 0.25);
    EXPECT_EQ(back.status, CaseStatus::ok);
    EXPECT_EQ(back.message, r.message);
    EXPECT_EQ(back.samples, r.samples);
    EXPECT_EQ(back.summary.n, 4u);
    ASSERT_EQ(back.counters.size(), 2u);
    EXPECT_EQ(back.counters[0].name, "flops");
    EXPECT_EQ(back.counters[1].source, CounterSource::emu);
    EXPECT_TRUE(std::isnan(back.counters[1].value));
}

TEST(CaseResult, AnchorSamplesRoundTripAndMustPairWithTheSamples) {
    CaseRecord r;
    r.samples = {{1e-3, 2e-3}};
    r.anchor_samples = {3e-3, 4e-3};
    CaseRecord back;
    decode_case_result(encode_case_result(r, 0), back);
    EXPECT_EQ(back.anchor_samples, r.anchor_samples);
    r.anchor_samples.pop_back();
    EXPECT_THROW(decode_case_result(encode_case_result(r, 0), back), InputError);
}

TEST(CaseResult, MalformedResultsAreRefused) {
    CaseRecord r;
    EXPECT_THROW(decode_case_result("{", r), InputError);
    EXPECT_THROW(decode_case_result(R"({"status":"weird","message":"","samples":[],"counters":[],"seconds":1})", r),
                 InputError);
}

// Params' canonical JSON is the identity of a case: the store keys cases by it, and a resumed or
// compared run matches cases by it, so its form must not drift.
#include "core/params.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace memwall {
namespace {

TEST(ParamsCanonical, KeysAreSortedByteWiseWhateverTheOrderTheyWereSetIn) {
    Params a;
    a.set("seq_q", std::int64_t{512});
    a.set("Br", std::int64_t{64});
    a.set("causal", std::int64_t{1});
    Params b;
    b.set("causal", std::int64_t{1});
    b.set("Br", std::int64_t{64});
    b.set("seq_q", std::int64_t{512});
    EXPECT_EQ(a.canonical(), R"({"Br":64,"causal":1,"seq_q":512})");
    EXPECT_EQ(b.canonical(), a.canonical());
}

TEST(ParamsCanonical, IntegersRealsAndTextKeepTheirKinds) {
    Params p;
    p.set("n", std::int64_t{1} << 40);
    p.set("neg", std::int64_t{-3});
    p.set("one", 1.0);  // a real with an integral value stays a real
    p.set("tenth", 0.1);
    p.set("big", 1e20);
    p.set("small", 2.5e-7);
    p.set("dtype", std::string("bf16"));
    EXPECT_EQ(p.canonical(),
              R"({"big":1e+20,"dtype":"bf16","n":1099511627776,"neg":-3,"one":1.0,"small":2.5e-07,"tenth":0.1})");
    EXPECT_EQ(Params{}.canonical(), "{}");
}

TEST(ParamsCanonical, RoundTripsThroughItsJsonExactly) {
    Params p;
    p.set("Br", std::int64_t{64});
    p.set("scale", 0.125);
    p.set("third", 1.0 / 3.0);
    p.set("layer", std::string("conv8"));
    p.set("path", std::string("/tmp/m\xff.mtx"));  // a path may be any bytes
    const Params back = Params::from_json(nlohmann::json::parse(p.canonical()));
    EXPECT_EQ(back, p);
    EXPECT_EQ(back.canonical(), p.canonical());
    EXPECT_TRUE(std::holds_alternative<double>(Params::from_json(nlohmann::json::parse(R"({"x":1.0})")).at("x")));
}

TEST(ParamsCanonical, ABooleanReadsAsTheIntegerItStandsFor) {
    EXPECT_EQ(Params::from_json(nlohmann::json::parse(R"({"causal":true})")).canonical(), R"({"causal":1})");
}

TEST(ParamsCanonical, AnythingButAnObjectOfNumbersAndTextIsRefused) {
    EXPECT_THROW(Params::from_json(nlohmann::json::parse("[1]")), InputError);
    EXPECT_THROW(Params::from_json(nlohmann::json::parse(R"({"a":[1]})")), InputError);
    EXPECT_THROW(Params::from_json(nlohmann::json::parse(R"({"a":null})")), InputError);
}

}  // namespace
}  // namespace memwall

#include "harness/suite.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "kernels/register_builtin.hpp"

namespace memwall {
namespace {

namespace fs = std::filesystem;

class SuiteTest : public ::testing::Test {
  protected:
    fs::path dir = fs::temp_directory_path() / ("memwall-suite-" + std::to_string(::getpid()));
    void SetUp() override { fs::create_directories(dir); }
    void TearDown() override { fs::remove_all(dir); }
    std::string write(const std::string& name, const std::string& text) {
        std::ofstream(dir / name) << text;
        return (dir / name).string();
    }
};

TEST_F(SuiteTest, EveryRepositorySuiteLoadsAndExpands) {
    const fs::path suites = fs::path(MEMWALL_TEST_DATA).parent_path().parent_path() / "suites";
    std::size_t n = 0;
    Catalogue cat;
    register_builtin_kernels(cat);
    for (const auto& e : fs::directory_iterator(suites)) {
        if (e.path().extension() != ".json") continue;
        const Suite s = load_suite(e.path().string());
        EXPECT_FALSE(s.name.empty()) << e.path();
        EXPECT_FALSE(expand_sweep(s.sweep, cat).empty()) << e.path();
        ++n;
    }
    EXPECT_GE(n, 1u);
}

TEST_F(SuiteTest, DefaultsAndOverrides) {
    const Suite s = load_suite(write("small.json", R"({"families": ["attention"], "axes": ["heads=2"],
        "sampler": {"timeout": 0.5}, "repetitions": 7, "interleave": false, "threshold": 0.1})"));
    EXPECT_EQ(s.name, "small");  // from the file name
    EXPECT_EQ(s.sweep.families, std::vector<std::string>{"attention"});
    EXPECT_EQ(s.sweep.overrides, std::vector<std::string>{"heads=2"});
    EXPECT_EQ(s.sweep.sampler.timeout, 0.5);
    EXPECT_EQ(s.sweep.sampler.min_samples, SamplerSettings{}.min_samples);
    EXPECT_EQ(s.repetitions, 7);
    EXPECT_FALSE(s.interleave);
    EXPECT_EQ(s.compare.threshold, 0.1);
    EXPECT_EQ(s.compare.alpha, 0.05);
}

TEST_F(SuiteTest, RefusesWhatItCannotUse) {
    const auto refused = [&](const std::string& text, const std::string& needle) {
        const std::string path = write("bad.json", text);
        try {
            load_suite(path);
            ADD_FAILURE() << "accepted " << text;
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos) << e.what();
        }
    };
    refused(R"({"famlies": ["attention"]})", "unknown key 'famlies'");
    refused(R"({"sampler": {"timout": 1}})", "unknown key 'timout'");
    refused(R"({"repetitions": 0})", "\"repetitions\" must be an integer from 1 to 1000000, not 0");
    refused(R"({"repetitions": "five"})", "\"repetitions\" must be an integer from 1 to 1000000, not \"five\"");
    refused(R"({"repetitions": 1e30})", "\"repetitions\" must be an integer from 1 to 1000000, not 1e+30");
    refused(R"({"repetitions": 2.5})", "\"repetitions\" must be an integer from 1 to 1000000, not 2.5");
    refused(R"({"seed": -1})", "\"seed\" must be an integer from 0 to 18446744073709551615, not -1");
    refused(R"({"sampler": {"warmup_runs": 1e30}})", "sampler: \"warmup_runs\" must be an integer from 0 to");
    // A value of the wrong type names its key.
    refused(R"({"families": "attention"})", "bad.json: \"families\": type must be array, but is string");
    refused(R"({"axes": [1]})", "bad.json: \"axes\": type must be string, but is number");
    refused(R"({"interleave": "yes"})", "bad.json: \"interleave\": type must be boolean, but is string");
    refused(R"({"sampler": {"timeout": "1s"}})", "bad.json: sampler: \"timeout\": type must be number, but is string");
    refused(R"({"backends": ["tpu"]})", "unknown backend 'tpu'");
    refused(R"({"threshold": 5})", "--threshold");
    refused(R"({"sampler": {"min_samples": 0}})",
            "sampler: \"min_samples\" must be an integer from 1 to 2147483647, not 0");
    refused(R"({"sampler": {"min_samples": 5, "max_samples": 2}})", "--max-samples must be >= --min-samples");
    refused(R"([1, 2])", "JSON object");
    refused("{", "not JSON");
    EXPECT_THROW(load_suite((dir / "missing.json").string()), InputError);
}

}  // namespace
}  // namespace memwall

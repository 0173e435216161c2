#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "results/export.hpp"
#include "results/tuning_store.hpp"
#include "tests/support/temp_dir.hpp"

namespace memwall {
namespace {

using nlohmann::json;
using test::TempDir;

TrialRecord trial(std::int64_t index, std::string config, std::string status, std::string reason) {
    TrialRecord t;
    t.index = index;
    t.config = std::move(config);
    t.status = std::move(status);
    t.reason = std::move(reason);
    return t;
}

// A session with a trial of every outcome the tuner stores.
struct ExportT4Test : ::testing::Test {
    TempDir dir;
    Store store = Store::open(dir.file("t.db"), Store::Mode::create);
    std::int64_t session = 0;
    std::vector<TrialRecord> stored;

    void SetUp() override {
        TuningSessionInfo s;
        s.host = "hostA";
        s.device = "AMD EPYC 9B14, 2 threads";
        s.backend = "cpu";
        s.family = "attention";
        s.variant = "flash";
        s.problem = R"({"seq":2048})";
        s.strategy = "guided";
        s.space_size = 36;
        session = begin_tuning_session(store, s);
        TrialRecord ok = trial(0, R"({"Bc":64,"Br":32})", "ok", "");
        ok.seconds = 2e-3;
        ok.samples = {2.1e-3, 2e-3, 1.9e-3};
        ok.cost_seconds = 0.4;
        ok.measurements = 3;
        ok.counters = {{"flops", 1e9, "FLOP", CounterSource::model}};
        stored = {ok,
                  trial(1, R"({"Bc":128,"Br":32})", "failed", "wrong result: relative L2 error 0.3"),
                  trial(2, R"({"Bc":256,"Br":256})", "invalid", "exceeds the workspace limit"),
                  trial(3, R"({"Bc":16,"Br":8})", "compile_failed", "no such tile"),
                  trial(4, R"({"Bc":32,"Br":8})", "runtime_failed", "killed by signal 11"),
                  trial(5, R"({"Bc":32,"Br":16})", "failed", "timeout: over 120 s")};
        for (const TrialRecord& t : stored) save_trial(store, session, t);
        finish_tuning_session(store, session, RunStatus::complete, "budget");
    }

    json exported() {
        std::ostringstream out;
        export_tuning_session_t4(store, session, out);
        return json::parse(out.str());
    }
};

// What the T4 results schema (1.0.0) requires: a schema_version "major.minor.patch", results
// whose items hold an object configuration, an object times (runtimes an array), an invalidity
// from its enum and a numeric correctness; measurements with a string name and unit and a
// number, string or array value.
TEST_F(ExportT4Test, CarriesEveryFieldTheSchemaRequires) {
    const json doc = exported();
    EXPECT_TRUE(
        std::regex_match(doc.at("schema_version").get<std::string>(), std::regex("^[0-9]+\\.[0-9]+\\.[0-9]+$")));
    const std::set<std::string> invalidities = {"timeout",     "compile",     "runtime",
                                                "correctness", "constraints", "correct"};
    ASSERT_EQ(doc.at("results").size(), stored.size());
    for (const json& r : doc.at("results")) {
        EXPECT_TRUE(r.at("configuration").is_object());
        EXPECT_TRUE(r.at("times").is_object());
        EXPECT_TRUE(r.at("times").at("runtimes").is_array());
        EXPECT_TRUE(invalidities.count(r.at("invalidity").get<std::string>())) << r.dump();
        EXPECT_TRUE(r.at("correctness").is_number());
        EXPECT_TRUE(r.at("objectives").is_array());
        for (const json& m : r.at("measurements")) {
            EXPECT_TRUE(m.at("name").is_string());
            EXPECT_TRUE(m.at("unit").is_string());
            EXPECT_TRUE(m.at("value").is_number() || m.at("value").is_string() || m.at("value").is_array());
        }
    }
}

// Read back, each result is its trial: the configuration, the samples and time (in ms), and
// why a configuration did not count, in T4's words.
TEST_F(ExportT4Test, ResultsReadBackAsTheTrials) {
    const json results = exported().at("results");
    for (std::size_t i = 0; i < stored.size(); ++i)
        EXPECT_EQ(results[i].at("configuration"), json::parse(stored[i].config)) << i;
    const json& ok = results[0];
    EXPECT_EQ(ok.at("invalidity"), "correct");
    EXPECT_EQ(ok.at("correctness"), 1);
    const json runtimes = ok.at("times").at("runtimes");
    ASSERT_EQ(runtimes.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(runtimes[i].get<double>(), stored[0].samples[i] * 1e3);
    const json& time = ok.at("measurements").at(0);
    EXPECT_EQ(time.at("name"), "time");
    EXPECT_EQ(time.at("unit"), "ms");
    EXPECT_DOUBLE_EQ(time.at("value").get<double>(), 2.0);
    EXPECT_EQ(results[1].at("invalidity"), "correctness");
    EXPECT_EQ(results[1].at("correctness"), 0);
    EXPECT_EQ(results[2].at("invalidity"), "constraints");
    EXPECT_EQ(results[3].at("invalidity"), "compile");
    EXPECT_EQ(results[4].at("invalidity"), "runtime");
    EXPECT_EQ(results[5].at("invalidity"), "timeout");
    EXPECT_EQ(results[4].at("memwall_reason"), "killed by signal 11");
}

TEST_F(ExportT4Test, MissingSessionIsAnInputError) {
    std::ostringstream out;
    EXPECT_THROW(export_tuning_session_t4(store, session + 1, out), InputError);
}

}  // namespace
}  // namespace memwall

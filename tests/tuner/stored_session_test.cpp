#include "tuner/stored_session.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "results/tuning_store.hpp"
#include "tests/support/temp_dir.hpp"

namespace memwall {
namespace {

TrialRecord trial(std::int64_t index, std::string config, std::optional<double> seconds) {
    TrialRecord t;
    t.index = index;
    t.config = std::move(config);
    t.seconds = seconds;
    if (!seconds) {
        t.status = "runtime_failed";
        t.reason = "out of shared memory";
    }
    t.samples = seconds ? std::vector<double>{*seconds, *seconds * 1.01} : std::vector<double>{};
    return t;
}

std::int64_t session(Store& store, const std::vector<TrialRecord>& trials) {
    TuningSessionInfo info;
    info.host = "h";
    info.device = "Intel Xeon, 2 threads";
    info.backend = "cpu";
    info.family = "conv";
    info.variant = "im2win";
    info.strategy = "guided";
    const std::int64_t id = begin_tuning_session(store, info);
    for (const TrialRecord& t : trials) save_trial(store, id, t);
    return id;
}

TEST(StoredSession, IsARecordedSpaceOfItsTrials) {
    test::TempDir d;
    Store store = Store::open(d.file("s.db"), Store::Mode::create);
    const std::int64_t id =
        session(store, {trial(0, R"({"Kb":32,"Wb":8})", 2e-3), trial(1, R"({"Kb":16,"Wb":8})", 3e-3),
                        trial(2, R"({"Kb":16,"Wb":4})", std::nullopt), trial(3, R"({"Kb":32,"Wb":8})", 9e-3)});
    const RecordedSpace rs = recorded_space_from_session(store, id, "s.db#1");
    EXPECT_EQ(rs.origin, "s.db#1");
    EXPECT_EQ(rs.format, "memwall");
    EXPECT_EQ(rs.device, "Intel Xeon, 2 threads");
    EXPECT_EQ(rs.kernel, "conv/im2win");
    // Values sorted, whatever order the trials took them in; the repeated configuration once.
    ASSERT_EQ(rs.space.parameters().size(), 2u);
    EXPECT_EQ(rs.space.parameters()[0].name, "Kb");
    EXPECT_EQ(rs.space.parameters()[0].values, (std::vector<Value>{std::int64_t{16}, std::int64_t{32}}));
    EXPECT_EQ(rs.space.parameters()[1].values, (std::vector<Value>{std::int64_t{4}, std::int64_t{8}}));
    ASSERT_EQ(rs.space.size(), 3u);
    ASSERT_EQ(rs.notes.size(), 1u);
    EXPECT_EQ(rs.ok_count(), 2u);
    EXPECT_DOUBLE_EQ(rs.optimum_seconds(), 2e-3);  // the first trial of Kb=32,Wb=8, not the repeat
    const auto failed = rs.space.find(Config{0, 0});
    ASSERT_TRUE(failed);
    EXPECT_EQ(rs.results[*failed].status, EvalStatus::runtime_failed);
    EXPECT_EQ(rs.results[*failed].reason, "out of shared memory");
    EXPECT_EQ(rs.results[*rs.space.find(Config{0, 1})].samples.size(), 2u);
}

TEST(StoredSession, MalformedOrMissingSessionsAreInputErrors) {
    test::TempDir d;
    Store store = Store::open(d.file("s.db"), Store::Mode::create);
    EXPECT_THROW(recorded_space_from_session(store, 1, "s.db#1"), InputError);                   // none stored
    EXPECT_THROW(recorded_space_from_session(store, session(store, {}), "s.db#1"), InputError);  // no trial
    EXPECT_THROW(recorded_space_from_session(store, session(store, {trial(0, "[1, 2]", 1e-3)}), "x"), InputError);
    EXPECT_THROW(recorded_space_from_session(
                     store, session(store, {trial(0, R"({"a":1})", 1e-3), trial(1, R"({"b":1})", 1e-3)}), "x"),
                 InputError);
    EXPECT_THROW(recorded_space_from_session(store, session(store, {trial(0, R"({"a":[1]})", 1e-3)}), "x"), InputError);
}

TEST(StoredSession, ReferencesNameADatabaseAndASession) {
    const auto r = session_reference("runs/a.db#12");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->database, "runs/a.db");
    EXPECT_EQ(r->session, 12);
    for (const char* not_one : {"a.json", "a.db#", "#3", "a.db#x", "a.db#0", "a.db#-1", "a.db#3x"})
        EXPECT_FALSE(session_reference(not_one)) << not_one;
}

}  // namespace
}  // namespace memwall

#include "results/merge.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <set>

#include "core/errors.hpp"
#include "tests/support/temp_dir.hpp"
#include "results/store.hpp"
#include "results/tune_eval_store.hpp"

namespace memwall {
namespace {

using test::read_file;
using test::TempDir;

RunInfo shard_run(std::size_t index, std::size_t count, const std::string& device = "CPU X, 2 threads") {
    RunInfo r;
    r.started_at = "2026-01-01T10:00:0" + std::to_string(index) + ".000Z";
    r.host = "node" + std::to_string(index);
    r.backend = "cpu";
    r.device = device;
    r.git_revision = "abc";
    r.command_line = "memwall run -f stream --shard " + std::to_string(index) + "/" + std::to_string(count);
    r.memwall_version = "1.0";
    r.sweep = R"({"families":["stream"],"seed":1,"shard":{"count":)" + std::to_string(count) + R"(,"index":)" +
              std::to_string(index) + "}}";
    r.tags = {{"slurm_array_job_id", "7"}, {"slurm_array_task_id", std::to_string(index)}};
    r.owner = {r.host, 4242, ""};
    return r;
}

CaseRecord a_case(std::int64_t run, int n, double seconds = 1e-3) {
    CaseRecord c;
    c.run_id = run;
    c.key = {"stream", "triad", "cpu", R"({"n":)" + std::to_string(n) + "}", "{}"};
    c.measured_at = "2026-01-01T10:00:10.000Z";
    c.samples = {{seconds, seconds * 1.01, seconds * 0.99}};
    c.sampling_stop = "converged";
    c.counters = {{"bytes.min", 24.0 * n, "B", CounterSource::model}};
    return c;
}

// A database of one run with the cases of sizes `ns`.
void make_db(const std::string& path, const RunInfo& info, const std::vector<int>& ns, RunStatus status,
             double seconds = 1e-3) {
    Store s = Store::open(path, Store::Mode::create);
    const std::int64_t id = s.begin_run(info);
    s.set_run_properties(id, {{"cpu", info.device}});
    Ceilings c;
    c.items = {{"dram", CeilingKind::bandwidth, 1e10, "B/s", "measured", 0}};
    s.save_ceilings(id, c);
    for (int n : ns) s.save_case(a_case(id, n, seconds));
    s.finish_run(id, status);
}

std::set<std::string> problems(const Store& s, std::int64_t run) {
    std::set<std::string> out;
    for (const CaseRecord& c : s.cases(run, false)) out.insert(c.key.problem);
    return out;
}

TEST(Merge, ShardsOnOneDeviceBecomeOneRunAndMergingAgainAddsNothing) {
    TempDir dir;
    const std::string a = dir.file("a.db"), b = dir.file("b.db"), out = dir.file("out.db");
    make_db(a, shard_run(0, 2), {1, 3}, RunStatus::complete);
    make_db(b, shard_run(1, 2), {2, 4}, RunStatus::interrupted);

    MergeResult r = merge_databases(out, {a, b});
    ASSERT_EQ(r.runs.size(), 1u);
    EXPECT_EQ(r.runs[0].added, 4u);
    EXPECT_EQ(r.runs[0].shards, "2 of 2 shards");
    EXPECT_TRUE(r.notes.empty());
    {
        const Store s = Store::open(out, Store::Mode::read_only);
        ASSERT_EQ(s.runs().size(), 1u);
        const RunInfo run = s.runs().front();
        EXPECT_EQ(problems(s, run.id), (std::set<std::string>{R"({"n":1})", R"({"n":2})", R"({"n":3})", R"({"n":4})"}));
        EXPECT_EQ(run.sweep, R"({"families":["stream"],"seed":1})");  // the whole sweep
        EXPECT_EQ(run.status, RunStatus::interrupted);                // shard 1 did not finish
        EXPECT_EQ(run.tags.at("shards"), "2");
        EXPECT_EQ(run.tags.at("shard.0.host"), "node0");
        EXPECT_EQ(run.tags.at("shard.1.host"), "node1");
        EXPECT_EQ(run.tags.at("shard.1.slurm_array_task_id"), "1");
        EXPECT_EQ(run.tags.at("shard.1.ceilings"), "as the run's");
        EXPECT_EQ(run.tags.count("slurm_array_task_id"), 0u);
        EXPECT_EQ(run.tags.at("slurm_array_job_id"), "7");
        EXPECT_FALSE(s.ceilings(run.id).empty());
        EXPECT_EQ(s.run_properties(run.id).at("cpu"), "CPU X, 2 threads");
    }
    const std::string bytes = read_file(out);
    r = merge_databases(out, {a, b});
    ASSERT_EQ(r.runs.size(), 1u);
    EXPECT_EQ(r.runs[0].added, 0u);
    EXPECT_EQ(r.runs[0].present, 4u);

    // Shard 1 resumed and finished: merging its newer copy adds its last case and completes the run.
    const std::string b2 = dir.file("b2.db");
    make_db(b2, shard_run(1, 2), {2, 4, 6}, RunStatus::complete);
    r = merge_databases(out, {b2});
    EXPECT_EQ(r.runs[0].added, 1u);
    const Store s = Store::open(out, Store::Mode::read_only);
    EXPECT_EQ(s.runs().front().status, RunStatus::complete);
    EXPECT_EQ(s.case_count(s.runs().front().id), 5u);
}

TEST(Merge, DifferentDevicesStayApartAndSaySo) {
    TempDir dir;
    const std::string a = dir.file("a.db"), b = dir.file("b.db"), out = dir.file("out.db");
    make_db(a, shard_run(0, 2, "CPU X"), {1}, RunStatus::complete);
    make_db(b, shard_run(1, 2, "CPU Y"), {2}, RunStatus::complete);
    const MergeResult r = merge_databases(out, {a, b});
    EXPECT_EQ(r.runs.size(), 2u);
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_NE(r.notes[0].find("2 devices"), std::string::npos) << r.notes[0];
}

TEST(Merge, SaysWhatItDoesNotCarry) {
    TempDir dir;
    const std::string a = dir.file("a.db"), out = dir.file("out.db");
    make_db(a, shard_run(0, 2), {1}, RunStatus::complete);
    {
        Store s = Store::open(a, Store::Mode::read_write);
        save_tune_eval(s, TuneEvalTable{}, {{}, "node0", "abc", "memwall tune-eval x.json", "1.0"});
    }
    const MergeResult r = merge_databases(out, {a});
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_NE(r.notes[0].find("0 tuning session(s) and 1 tune-eval table(s) are not merged"), std::string::npos)
        << r.notes[0];
}

TEST(Merge, AWholeRunIsCopiedOnce) {
    TempDir dir;
    const std::string a = dir.file("a.db"), out = dir.file("out.db");
    RunInfo whole = shard_run(0, 1);
    whole.sweep = R"({"families":["stream"]})";
    make_db(a, whole, {1, 2}, RunStatus::complete);
    EXPECT_EQ(merge_databases(out, {a}).runs.at(0).added, 2u);
    EXPECT_EQ(merge_databases(out, {a}).runs.at(0).present, 2u);
    const Store s = Store::open(out, Store::Mode::read_only);
    ASSERT_EQ(s.runs().size(), 1u);
    EXPECT_EQ(s.runs().front().status, RunStatus::complete);
    EXPECT_EQ(s.runs().front().host, "node0");
    EXPECT_EQ(s.runs().front().sweep, whole.sweep);
}

TEST(Merge, AConflictingDuplicateOrANewerSchemaLeavesTheOutputsBytes) {
    TempDir dir;
    const std::string a = dir.file("a.db"), b = dir.file("b.db"), c = dir.file("c.db"), out = dir.file("out.db");
    make_db(a, shard_run(0, 2), {1, 3}, RunStatus::complete);
    make_db(b, shard_run(0, 2), {1, 3}, RunStatus::complete, 2e-3);  // the same shard, other times
    make_db(c, shard_run(1, 2), {2}, RunStatus::complete);
    merge_databases(out, {a});
    const std::string bytes = read_file(out);
    EXPECT_THROW(merge_databases(out, {c, b}), InputError);
    EXPECT_EQ(read_file(out), bytes);

    const std::string newer = dir.file("newer.db");
    make_db(newer, shard_run(1, 2), {2}, RunStatus::complete);
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(newer.c_str(), &db), SQLITE_OK);
        const std::string sql = "PRAGMA user_version = " + std::to_string(Store::kSchemaVersionLatest + 1);
        ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
    }
    EXPECT_THROW(merge_databases(out, {c, newer}), InputError);
    EXPECT_EQ(read_file(out), bytes);
    // Nor is a missing output created by a refused merge.
    EXPECT_THROW(merge_databases(dir.file("new.db"), {newer}), InputError);
    EXPECT_FALSE(std::filesystem::exists(dir.file("new.db")));
    EXPECT_THROW(merge_databases(out, {out}), UsageError);
    EXPECT_EQ(read_file(out), bytes);
    // No temporary file is left beside it.
    for (const std::string& name : dir.entries()) EXPECT_EQ(name.find(".merge-"), std::string::npos) << name;
}

}  // namespace
}  // namespace memwall

#include "results/store.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <cmath>
#include <limits>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "results/sqlite_statement.hpp"
#include "tests/support/temp_dir.hpp"

namespace memwall {
namespace {

using test::read_file;
using test::TempDir;
using test::write_file;

constexpr Store::Mode kAllModes[] = {Store::Mode::read_only, Store::Mode::read_write, Store::Mode::create};

bool is_iso_utc_ms(const std::string& s) {
    static const std::regex re(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)");
    return std::regex_match(s, re);
}

RunInfo sample_run(const std::string& host = "hostA", const std::string& backend = "cpu",
                   const std::string& started_at = "2024-05-01T10:00:00.000Z") {
    RunInfo r;
    r.started_at = started_at;
    r.host = host;
    r.backend = backend;
    r.device = "AMD EPYC 9B14, 2 threads";
    r.git_revision = "abc123";
    r.command_line = "memwall run --family attention";
    r.memwall_version = "0.1.0";
    r.sweep = R"({"families":["attention"]})";
    r.tags = {{"branch", "main"}, {"ci", "yes"}};
    return r;
}

Ceilings sample_ceilings() {
    Ceilings c;
    c.items = {
        {"l1", CeilingKind::bandwidth, 4e11, "B/s", "ert a=a*b+c", 32768},
        {"dram", CeilingKind::bandwidth, 3e10, "B/s", "ert a=a*b+c", 0},
        {"fp32_fma", CeilingKind::compute, 2e11, "FLOP/s", "fma peak", 0},
    };
    return c;
}

CaseRecord sample_case(std::int64_t run_id, const std::string& variant = "naive") {
    CaseRecord c;
    c.run_id = run_id;
    c.key = {"attention", variant, "cpu", R"({"b":1,"d":64})", R"({"Br":32})"};
    c.status = CaseStatus::ok;
    c.measured_at = "2024-05-01T10:00:01.500Z";
    c.samples = {{3e-3, 1e-3, 2e-3}, {5e-3, 4e-3}};
    c.counters = {{"flops", 1e9, "FLOP", CounterSource::model},
                  {"bytes.dram", 2e8, "B", CounterSource::model},
                  {"bytes.dram", 2.5e8, "B", CounterSource::perf}};
    return c;
}

std::int64_t count_rows(const Store& s, const char* table) {
    Statement st(s.handle(), std::string("SELECT count(*) FROM ") + table);
    st.step();
    return st.int64(0);
}

void sqlite_exec_file(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_close(db);
}

// Every mode refuses the file with `message`, leaving it byte-for-byte as it was and no side
// file (-wal, -shm, -journal) behind.
void expect_refused(const TempDir& dir, const std::string& path, const std::string& message) {
    const std::string before = read_file(path);
    const auto entries = dir.entries();
    for (Store::Mode mode : kAllModes) {
        try {
            Store::open(path, mode);
            ADD_FAILURE() << "opened in mode " << static_cast<int>(mode);
        } catch (const InputError& e) {
            EXPECT_EQ(std::string(e.what()).substr(0, message.size()), message) << e.what();
        }
        EXPECT_EQ(read_file(path), before) << "mode " << static_cast<int>(mode);
        EXPECT_EQ(dir.entries(), entries) << "mode " << static_cast<int>(mode);
    }
}

TEST(StoreOpen, CreatesAMemwallDatabaseInWalMode) {
    TempDir dir;
    const std::string path = dir.file("r.db");
    Store s = Store::open(path, Store::Mode::create);
    EXPECT_EQ(s.schema_version(), Store::kSchemaVersionLatest);
    EXPECT_EQ(s.path(), path);
    Statement app(s.handle(), "PRAGMA application_id");
    app.step();
    EXPECT_EQ(app.int64(0), Store::kApplicationId);
    Statement journal(s.handle(), "PRAGMA journal_mode");
    journal.step();
    EXPECT_EQ(journal.text(0), "wal");
    Statement fk(s.handle(), "PRAGMA foreign_keys");
    fk.step();
    EXPECT_EQ(fk.int64(0), 1);
}

TEST(StoreOpen, ReopensInEveryMode) {
    TempDir dir;
    const std::string path = dir.file("r.db");
    std::int64_t id = 0;
    {
        Store s = Store::open(path, Store::Mode::create);
        id = s.begin_run(sample_run());
    }
    for (Store::Mode mode : kAllModes) {
        Store s = Store::open(path, mode);
        ASSERT_TRUE(s.run(id)) << static_cast<int>(mode);
        EXPECT_EQ(s.run(id)->host, "hostA");
    }
}

TEST(StoreOpen, ReadOnlyCannotWrite) {
    TempDir dir;
    const std::string path = dir.file("r.db");
    Store::open(path, Store::Mode::create);
    Store s = Store::open(path, Store::Mode::read_only);
    EXPECT_THROW(s.begin_run(sample_run()), std::runtime_error);
}

TEST(StoreOpen, MissingFileIsRefusedUnlessCreating) {
    TempDir dir;
    const std::string path = dir.file("missing.db");
    for (Store::Mode mode : {Store::Mode::read_only, Store::Mode::read_write}) {
        try {
            Store::open(path, mode);
            ADD_FAILURE() << "opened a missing file";
        } catch (const InputError& e) {
            EXPECT_EQ(std::string(e.what()), path + ": no such file");
        }
    }
    EXPECT_TRUE(dir.entries().empty());
    EXPECT_THROW(Store::open(dir.file("no/such/dir/r.db"), Store::Mode::create), EnvironmentError);
}

TEST(StoreOpen, ADamagedSchemaIsRefusedInEveryModeBeforeAnythingIsWritten) {
    TempDir dir;
    const std::string dropped = dir.file("dropped.db"), altered = dir.file("altered.db");
    for (const std::string& path : {dropped, altered}) {
        Store s = Store::open(path, Store::Mode::create);
        s.begin_run(sample_run());
    }
    const auto damage = [](const std::string& path, const char* sql) {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
    };
    damage(dropped, "DROP TABLE samples");
    damage(altered, "ALTER TABLE runs DROP COLUMN sweep");
    expect_refused(dir, dropped,
                   dropped + ": damaged database: table samples of schema " +
                       std::to_string(Store::kSchemaVersionLatest) + " is missing");
    expect_refused(dir, altered, altered + ": damaged database: table runs has no column sweep");
}

TEST(StoreOpen, ADirectoryIsAnEnvironmentError) {
    TempDir dir;
    for (Store::Mode mode : kAllModes) EXPECT_THROW(Store::open(dir.file(""), mode), EnvironmentError);
}

// SQLite's path limit is named, not "cannot open": 504 bytes of absolute path are opened, 505 refused.
TEST(StoreOpen, APathLongerThanSqliteTakesIsRefusedNamingTheLimit) {
    const std::size_t kMaxPathBytes = 504;
    TempDir dir;
    std::string path = dir.file("");
    while (kMaxPathBytes - path.size() > 201) {
        path += std::string(199, 'd') + "/";
        std::filesystem::create_directory(path);
    }
    const std::string fits = path + std::string(kMaxPathBytes - path.size(), 'f');
    ASSERT_EQ(fits.size(), kMaxPathBytes);
    EXPECT_NO_THROW(Store::open(fits, Store::Mode::create));
    try {
        Store::open(fits + "g", Store::Mode::create);
        FAIL() << "a path of 505 bytes was opened";
    } catch (const EnvironmentError& e) {
        EXPECT_NE(
            std::string(e.what()).find("absolute path is 505 bytes; SQLite opens databases at paths of at most 504"),
            std::string::npos)
            << e.what();
    }
}

// A writer killed before its checkpoint left a -wal file; a user who cannot write beside the
// database cannot build the -shm index that reading it needs, and is told so, not "unreadable".
TEST(StoreOpen, AWalFileThatCannotBeReadHereIsSaid) {
    TempDir dir;
    const std::string path = dir.file("t.db");
    const pid_t writer = ::fork();
    if (writer == 0) {
        Store s = Store::open(path, Store::Mode::create);
        s.begin_run(sample_run());
        ::_exit(0);  // killed, in effect: no checkpoint, the -wal and -shm stay
    }
    int status = 0;
    ASSERT_EQ(::waitpid(writer, &status, 0), writer);
    ASSERT_TRUE(std::filesystem::exists(path + "-wal"));
    std::filesystem::remove(path + "-shm");
    // Another user, who may read the directory and the files but not write there.
    ::chmod(dir.file("").c_str(), 0755);
    ::chmod(path.c_str(), 0644);
    ::chmod((path + "-wal").c_str(), 0644);
    const pid_t reader = ::fork();
    if (reader == 0) {
        if (::geteuid() == 0 ? ::setgid(65534) != 0 || ::setuid(65534) != 0 : ::chmod(dir.file("").c_str(), 0555) != 0)
            ::_exit(2);
        if (::access(path.c_str(), R_OK) != 0) ::_exit(6);
        try {
            Store::open(path, Store::Mode::read_only);
        } catch (const EnvironmentError& e) {
            ::_exit(std::string(e.what()).find("cannot read the changes in its -wal file") != std::string::npos ? 0
                                                                                                                : 3);
        } catch (...) {
            ::_exit(4);
        }
        ::_exit(5);
    }
    ASSERT_EQ(::waitpid(reader, &status, 0), reader);
    ::chmod(dir.file("").c_str(), 0700);
    ASSERT_TRUE(WIFEXITED(status));
    if (WEXITSTATUS(status) == 6) GTEST_SKIP() << "the temp directory is out of another user's reach";
    EXPECT_EQ(WEXITSTATUS(status), 0) << "2: no other user; 3: another message; 4: another error; 5: opened";
}

TEST(StoreOpen, EmptyFileBecomesAFreshDatabase) {
    TempDir dir;
    const std::string path = dir.file("empty.db");
    write_file(path, "");
    EXPECT_THROW(Store::open(path, Store::Mode::read_only), InputError);
    EXPECT_EQ(read_file(path), "");
    EXPECT_EQ(dir.entries(), std::set<std::string>{"empty.db"});
    Store s = Store::open(path, Store::Mode::read_write);
    EXPECT_EQ(s.schema_version(), Store::kSchemaVersionLatest);
}

TEST(StoreOpen, MigratesABlankSqliteDatabaseFromVersionZero) {
    TempDir dir;
    const std::string path = dir.file("blank.db");
    sqlite_exec_file(path, "CREATE TABLE t (x); DROP TABLE t;");  // a header, no tables
    ASSERT_GT(read_file(path).size(), 100u);
    Store s = Store::open(path, Store::Mode::read_write);
    EXPECT_EQ(s.schema_version(), Store::kSchemaVersionLatest);
    EXPECT_GT(s.begin_run(sample_run()), 0);
}

TEST(StoreOpen, RefusesAFileThatIsNotSqlite) {
    TempDir dir;
    const std::string text = dir.file("notes.txt");
    write_file(text, "family,variant\nattention,naive\n");
    expect_refused(dir, text, text + ": not a SQLite database");
    const std::string tiny = dir.file("tiny.bin");
    write_file(tiny, "SQLite");
    expect_refused(dir, tiny, tiny + ": not a SQLite database");
}

TEST(StoreOpen, RefusesAForeignSqliteDatabase) {
    TempDir dir;
    const std::string path = dir.file("other.db");
    sqlite_exec_file(path, "CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('keep me');");
    ASSERT_EQ(dir.entries(), std::set<std::string>{"other.db"});
    expect_refused(dir, path, path + ": not a memwall database (application_id 0x00000000");
}

TEST(StoreOpen, RefusesAForeignWalDatabase) {
    TempDir dir;
    const std::string path = dir.file("other.db");
    sqlite_exec_file(path, "PRAGMA journal_mode = WAL; CREATE TABLE notes (x TEXT);");
    ASSERT_EQ(dir.entries(), std::set<std::string>{"other.db"});
    expect_refused(dir, path, path + ": not a memwall database (application_id 0x00000000");
}

TEST(StoreOpen, RefusesAnotherApplicationsEmptyDatabase) {
    TempDir dir;
    const std::string path = dir.file("other.db");
    sqlite_exec_file(path, "PRAGMA application_id = 1234;");
    expect_refused(dir, path, path + ": not a memwall database (application_id 0x000004d2");
}

TEST(StoreOpen, RefusesANewerSchema) {
    TempDir dir;
    const std::string path = dir.file("future.db");
    Store::open(path, Store::Mode::create);
    const std::string newer = std::to_string(Store::kSchemaVersionLatest + 1);
    sqlite_exec_file(path, ("PRAGMA user_version = " + newer).c_str());
    ASSERT_EQ(dir.entries(), std::set<std::string>{"future.db"});
    expect_refused(dir, path,
                   path + ": written by a newer memwall (schema " + newer + ", this memwall reads up to " +
                       std::to_string(Store::kSchemaVersionLatest) + ")");
}

TEST(StoreOpen, ReaderSeesWritesOfAnOpenWriter) {
    TempDir dir;
    const std::string path = dir.file("live.db");
    Store writer = Store::open(path, Store::Mode::create);
    const std::int64_t id = writer.begin_run(sample_run());  // in the -wal, not yet checkpointed
    Store reader = Store::open(path, Store::Mode::read_only);
    EXPECT_TRUE(reader.run(id));
}

TEST(StoreOpen, MovedStoreKeepsTheConnection) {
    TempDir dir;
    Store a = Store::open(dir.file("r.db"), Store::Mode::create);
    Store b = std::move(a);
    EXPECT_GT(b.begin_run(sample_run()), 0);
    a = std::move(b);
    EXPECT_EQ(a.runs().size(), 1u);
}

struct StoreTest : ::testing::Test {
    TempDir dir;
    Store store = Store::open(dir.file("r.db"), Store::Mode::create);
};

TEST_F(StoreTest, RunRoundTrip) {
    const RunInfo in = sample_run();
    const std::int64_t id = store.begin_run(in);
    auto out = store.run(id);
    ASSERT_TRUE(out);
    EXPECT_EQ(out->id, id);
    EXPECT_EQ(out->started_at, in.started_at);
    EXPECT_EQ(out->finished_at, "");
    // Stored as running, on another host, started long ago and silent since: no one measures it.
    EXPECT_EQ(out->status, RunStatus::abandoned);
    EXPECT_EQ(out->owner.pid, Owner::self().pid);
    EXPECT_EQ(out->host, in.host);
    EXPECT_EQ(out->backend, in.backend);
    EXPECT_EQ(out->device, in.device);
    EXPECT_EQ(out->git_revision, in.git_revision);
    EXPECT_EQ(out->command_line, in.command_line);
    EXPECT_EQ(out->memwall_version, in.memwall_version);
    EXPECT_EQ(out->sweep, in.sweep);
    EXPECT_EQ(out->tags, in.tags);

    store.finish_run(id, RunStatus::complete);
    out = store.run(id);
    EXPECT_EQ(out->status, RunStatus::complete);
    EXPECT_TRUE(is_iso_utc_ms(out->finished_at)) << out->finished_at;
    EXPECT_THROW(store.finish_run(id + 100, RunStatus::complete), std::logic_error);
    EXPECT_FALSE(store.run(id + 100));
}

TEST_F(StoreTest, BeginRunStampsAStartTimeAndKeepsUnknownRevisionEmpty) {
    RunInfo in = sample_run();
    in.started_at.clear();
    in.git_revision.clear();
    const auto out = store.run(store.begin_run(in));
    EXPECT_TRUE(is_iso_utc_ms(out->started_at)) << out->started_at;
    EXPECT_EQ(out->git_revision, "");
}

TEST_F(StoreTest, RunsOldestFirstAndLatest) {
    EXPECT_FALSE(store.latest_run());
    const auto b = store.begin_run(sample_run("h", "cpu", "2024-05-02T00:00:00.000Z"));
    const auto a = store.begin_run(sample_run("h", "cpu", "2024-05-01T00:00:00.000Z"));
    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].id, a);
    EXPECT_EQ(runs[1].id, b);
    EXPECT_EQ(runs[0].tags, sample_run().tags);
    EXPECT_EQ(store.latest_run()->id, b);
}

TEST_F(StoreTest, TagsSetOverwriteAndSelectRuns) {
    const auto a = store.begin_run(sample_run("h", "cpu", "2024-05-01T00:00:00.000Z"));
    const auto b = store.begin_run(sample_run("h", "cpu", "2024-05-02T00:00:00.000Z"));
    store.set_tag(a, "branch", "feature");
    store.set_tag(b, "baseline", "1");
    EXPECT_EQ(store.run(a)->tags.at("branch"), "feature");
    EXPECT_EQ(store.runs_tagged("branch", "main"), std::vector<std::int64_t>{b});
    EXPECT_EQ(store.runs_tagged("ci", "yes"), (std::vector<std::int64_t>{a, b}));
    EXPECT_TRUE(store.runs_tagged("ci", "no").empty());
    EXPECT_THROW(store.set_tag(b + 100, "k", "v"), std::logic_error);
}

TEST_F(StoreTest, RunPropertiesAreReplacedAsAWhole) {
    const auto a = store.begin_run(sample_run());
    EXPECT_TRUE(store.run_properties(a).empty());
    store.set_run_properties(a, {{"name", "NVIDIA H100"}, {"sm_count", "132"}});
    store.set_run_properties(a, {{"name", "AMD EPYC 9B14"}, {"cores", "2"}});
    EXPECT_EQ(store.run_properties(a), (std::map<std::string, std::string>{{"cores", "2"}, {"name", "AMD EPYC 9B14"}}));
    EXPECT_THROW(store.set_run_properties(a + 100, {{"k", "v"}}), std::logic_error);
}

TEST_F(StoreTest, CeilingsRoundTripInOrder) {
    const auto id = store.begin_run(sample_run());
    EXPECT_TRUE(store.ceilings(id).empty());
    const Ceilings in = sample_ceilings();
    store.save_ceilings(id, in);
    const Ceilings out = store.ceilings(id);
    ASSERT_EQ(out.items.size(), in.items.size());
    for (std::size_t i = 0; i < in.items.size(); ++i) {
        EXPECT_EQ(out.items[i].name, in.items[i].name);
        EXPECT_EQ(out.items[i].kind, in.items[i].kind);
        EXPECT_EQ(out.items[i].value, in.items[i].value);
        EXPECT_EQ(out.items[i].unit, in.items[i].unit);
        EXPECT_EQ(out.items[i].method, in.items[i].method);
        EXPECT_EQ(out.items[i].capacity_bytes, in.items[i].capacity_bytes);
        EXPECT_TRUE(out.items[i].reliable());
    }
    EXPECT_EQ(out.reused_from_run, 0);
    Ceilings fewer;
    fewer.items = {in.items[1]};
    store.save_ceilings(id, fewer);  // replaces the run's ceilings
    ASSERT_EQ(store.ceilings(id).items.size(), 1u);
    EXPECT_EQ(store.ceilings(id).items[0].name, "dram");
}

TEST_F(StoreTest, LatestMeasuredCeilingsRunMatchesHostAndBackend) {
    EXPECT_FALSE(store.latest_measured_ceilings_run("hostA", "cpu", true));
    const auto old_run = store.begin_run(sample_run("hostA", "cpu", "2024-05-01T00:00:00.000Z"));
    store.save_ceilings(old_run, sample_ceilings());
    const auto mixed = store.begin_run(sample_run("hostA", "cpu,cuda-emu", "2024-05-02T00:00:00.000Z"));
    store.save_ceilings(mixed, sample_ceilings());
    store.begin_run(sample_run("hostA", "cpu", "2024-05-03T00:00:00.000Z"));  // no ceilings
    const auto other_host = store.begin_run(sample_run("hostB", "cpu", "2024-05-04T00:00:00.000Z"));
    store.save_ceilings(other_host, sample_ceilings());

    EXPECT_EQ(store.latest_measured_ceilings_run("hostA", "cpu", true), mixed);
    EXPECT_EQ(store.latest_measured_ceilings_run("hostA", "cuda-emu", true), mixed);
    EXPECT_EQ(store.latest_measured_ceilings_run("hostB", "cpu", true), other_host);
    EXPECT_FALSE(store.latest_measured_ceilings_run("hostA", "cuda", true));  // not a prefix match of cuda-emu
    EXPECT_FALSE(store.latest_measured_ceilings_run("hostC", "cpu", true));
}

TEST_F(StoreTest, TrustAndProvenanceOfCeilingsRoundTrip) {
    const auto measured = store.begin_run(sample_run());
    Ceilings in = sample_ceilings();
    in.items[0].unreliable = "measured while the machine was busy: the threads ran 61% of the time";
    store.save_ceilings(measured, in);
    const Ceilings out = store.ceilings(measured);
    EXPECT_EQ(out.reused_from_run, 0);
    EXPECT_EQ(out.items[0].unreliable, in.items[0].unreliable);
    EXPECT_TRUE(out.items[1].reliable());
    EXPECT_FALSE(out.reliable());

    const auto copy = store.begin_run(sample_run());
    Ceilings reused = sample_ceilings();
    reused.reused_from_run = measured;
    store.save_ceilings(copy, reused);
    EXPECT_EQ(store.ceilings(copy).reused_from_run, measured);
    EXPECT_EQ(store.ceilings(copy).items[0].method, "ert a=a*b+c");
    EXPECT_TRUE(store.ceilings(copy).reliable());
}

TEST_F(StoreTest, OnlyMeasuredCeilingsAreFoundForReuseAndReliableOnesFirst) {
    const auto good = store.begin_run(sample_run("hostA", "cpu", "2024-05-01T00:00:00.000Z"));
    store.save_ceilings(good, sample_ceilings());
    const auto busy = store.begin_run(sample_run("hostA", "cpu", "2024-05-02T00:00:00.000Z"));
    Ceilings flagged = sample_ceilings();
    flagged.items[2].unreliable = "measured while the machine was busy: the threads never ran together";
    store.save_ceilings(busy, flagged);
    const auto copy = store.begin_run(sample_run("hostA", "cpu", "2024-05-03T00:00:00.000Z"));
    Ceilings reused = sample_ceilings();
    reused.reused_from_run = good;
    store.save_ceilings(copy, reused);

    // The copy is newest and trusted, but a copy: never taken. The flagged run is newer than
    // the good one: taken only when flagged ones are asked for.
    EXPECT_EQ(store.latest_measured_ceilings_run("hostA", "cpu", true), good);
    EXPECT_EQ(store.latest_measured_ceilings_run("hostA", "cpu", false), busy);
}

TEST_F(StoreTest, CaseRoundTrip) {
    const auto run = store.begin_run(sample_run());
    const CaseRecord in = sample_case(run);
    const auto id = store.save_case(in);
    const auto out = store.cases(run);
    ASSERT_EQ(out.size(), 1u);
    const CaseRecord& c = out[0];
    EXPECT_EQ(c.id, id);
    EXPECT_EQ(c.run_id, run);
    EXPECT_EQ(c.key, in.key);
    EXPECT_EQ(c.status, CaseStatus::ok);
    EXPECT_EQ(c.message, "");
    EXPECT_EQ(c.measured_at, in.measured_at);
    EXPECT_EQ(c.samples, in.samples);
    ASSERT_EQ(c.counters.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(c.counters[i].name, in.counters[i].name);
        EXPECT_EQ(c.counters[i].value, in.counters[i].value);
        EXPECT_EQ(c.counters[i].unit, in.counters[i].unit);
        EXPECT_EQ(c.counters[i].source, in.counters[i].source);
    }
    // Samples 1..5 ms: median 3, q1 2, q3 4 (type 7), sample stddev sqrt(2.5) ms.
    EXPECT_EQ(c.summary.n, 5u);
    EXPECT_DOUBLE_EQ(c.summary.median, 3e-3);
    EXPECT_DOUBLE_EQ(c.summary.min, 1e-3);
    EXPECT_DOUBLE_EQ(c.summary.max, 5e-3);
    EXPECT_DOUBLE_EQ(c.summary.mean, 3e-3);
    EXPECT_DOUBLE_EQ(c.summary.stddev, std::sqrt(2.5) * 1e-3);
    EXPECT_DOUBLE_EQ(c.summary.q1, 2e-3);
    EXPECT_DOUBLE_EQ(c.summary.q3, 4e-3);
    EXPECT_DOUBLE_EQ(c.summary.iqr, 2e-3);
    EXPECT_DOUBLE_EQ(c.summary.rsd, std::sqrt(2.5) / 3);

    const auto without = store.cases(run, false);
    ASSERT_EQ(without.size(), 1u);
    EXPECT_TRUE(without[0].samples.empty());
    EXPECT_EQ(without[0].summary.n, 5u);
    EXPECT_EQ(without[0].counters.size(), 3u);
}

TEST_F(StoreTest, SummaryIsReadFromTheStoredColumns) {
    const auto run = store.begin_run(sample_run());
    const auto id = store.save_case(sample_case(run));
    // A summary edited in the database is what cases() reports: nothing is recomputed.
    Statement(store.handle(), "UPDATE cases SET time_median = 42 WHERE id = ?1").bind(1, id).run();
    EXPECT_EQ(store.cases(run)[0].summary.median, 42);
}

TEST_F(StoreTest, UntimedCaseStoresNullSummary) {
    const auto run = store.begin_run(sample_run());
    CaseRecord c = sample_case(run);
    c.status = CaseStatus::skipped;
    c.message = "needs a GPU";
    c.measured_at.clear();
    c.samples.clear();
    c.counters.clear();
    const auto id = store.save_case(c);
    Statement st(store.handle(), "SELECT n_samples, time_median IS NULL, time_q3 IS NULL FROM cases WHERE id = ?1");
    st.bind(1, id).step();
    EXPECT_EQ(st.int64(0), 0);
    EXPECT_EQ(st.int64(1), 1);
    EXPECT_EQ(st.int64(2), 1);
    const auto out = store.cases(run);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].status, CaseStatus::skipped);
    EXPECT_EQ(out[0].message, "needs a GPU");
    EXPECT_EQ(out[0].summary.n, 0u);
    EXPECT_EQ(out[0].summary.median, 0);
    EXPECT_TRUE(is_iso_utc_ms(out[0].measured_at)) << out[0].measured_at;
}

TEST_F(StoreTest, DuplicateCaseIsRejectedAndLeavesNothingBehind) {
    const auto run = store.begin_run(sample_run());
    store.save_case(sample_case(run));
    CaseRecord again = sample_case(run);
    again.samples = {{9e-3}};
    EXPECT_THROW(store.save_case(again), std::logic_error);
    EXPECT_EQ(store.case_count(run), 1u);
    EXPECT_EQ(count_rows(store, "samples"), 5);
    EXPECT_EQ(count_rows(store, "counters"), 3);
    // The same key in another run is a different case.
    const auto other = store.begin_run(sample_run());
    EXPECT_NO_THROW(store.save_case(sample_case(other)));
}

TEST_F(StoreTest, InvalidCasesAreRejectedWhole) {
    const auto run = store.begin_run(sample_run());
    CaseRecord nan_sample = sample_case(run);
    nan_sample.samples[1].push_back(std::numeric_limits<double>::quiet_NaN());
    EXPECT_THROW(store.save_case(nan_sample), std::logic_error);
    CaseRecord twice = sample_case(run);
    twice.counters.push_back(twice.counters[0]);
    EXPECT_THROW(store.save_case(twice), std::logic_error);
    EXPECT_THROW(store.save_case(sample_case(run + 100)), std::logic_error);
    EXPECT_EQ(count_rows(store, "cases"), 0);
    EXPECT_EQ(count_rows(store, "samples"), 0);
    EXPECT_EQ(count_rows(store, "counters"), 0);
}

TEST_F(StoreTest, CaseKeysAndCount) {
    const auto run = store.begin_run(sample_run());
    const auto other = store.begin_run(sample_run());
    store.save_case(sample_case(run, "naive"));
    store.save_case(sample_case(run, "flash"));
    store.save_case(sample_case(other, "decode_splitkv"));
    const std::set<CaseKey> keys = store.case_keys(run);
    EXPECT_EQ(keys, (std::set<CaseKey>{sample_case(run, "naive").key, sample_case(run, "flash").key}));
    EXPECT_EQ(store.case_count(run), 2u);
    EXPECT_EQ(store.case_count(other), 1u);
    EXPECT_EQ(store.case_count(other + 100), 0u);
}

TEST(CaseStatusNames, RoundTrip) {
    for (CaseStatus s : {CaseStatus::ok, CaseStatus::wrong_result, CaseStatus::failed, CaseStatus::timeout,
                         CaseStatus::skipped, CaseStatus::unchecked})
        EXPECT_EQ(case_status_from(to_string(s)), s);
    EXPECT_EQ(to_string(CaseStatus::wrong_result), "wrong_result");
    EXPECT_EQ(case_status_from("exploded"), std::nullopt);
    EXPECT_EQ(to_string(RunStatus::interrupted), "interrupted");
}

}  // namespace
}  // namespace memwall

namespace memwall {
namespace {

TEST(StoreRuns, AxesAreStoredWithTheRunAndReadBackTyped) {
    test::TempDir d;
    Store s = Store::open(d.file("a.db"), Store::Mode::create);
    RunInfo info = sample_run();
    info.axes = {{"attention", "causal", AxisKind::boolean, AxisRole::problem, "causal mask", {}},
                 {"attention", "dtype", AxisKind::string, AxisRole::problem, "element type", {"fp32", "bf16"}},
                 {"attention", "Br", AxisKind::integer, AxisRole::tunable, "query rows per tile", {}}};
    const std::int64_t id = s.begin_run(info);
    const auto back = s.run(id)->axes;
    ASSERT_EQ(back.size(), 3u);
    for (const RunAxis& a : info.axes) EXPECT_NE(std::find(back.begin(), back.end(), a), back.end()) << a.name;
    EXPECT_EQ(s.runs().front().axes.size(), 3u);
    // A run without axes (made before they were stored, or of no cases) reads back without.
    EXPECT_TRUE(s.run(s.begin_run(sample_run()))->axes.empty());
}

TEST_F(StoreTest, RemovedCasesAreThoseOfTheGivenStatuses) {
    const auto run = store.begin_run(sample_run());
    CaseRecord failed = sample_case(run, "naive");
    failed.status = CaseStatus::failed;
    failed.samples.clear();
    store.save_case(failed);
    store.save_case(sample_case(run, "flash"));
    EXPECT_EQ(store.remove_cases(run, {CaseStatus::failed, CaseStatus::timeout}), 1u);
    EXPECT_EQ(store.case_keys(run), (std::set<CaseKey>{sample_case(run, "flash").key}));
    store.save_case(failed);  // the key is free again
    EXPECT_EQ(store.case_count(run), 2u);
}

TEST_F(StoreTest, ReplacedCasesTakeThePlaceOfTheirKey) {
    const auto run = store.begin_run(sample_run());
    CaseRecord c = sample_case(run, "naive");
    store.replace_cases({c});
    c.samples.push_back({1e-3, 1e-3});
    store.replace_cases({c});
    const auto cases = store.cases(run);
    ASSERT_EQ(cases.size(), 1u);
    EXPECT_EQ(cases[0].samples.size(), c.samples.size());
}

TEST(LiveStatus, ARunWhoseOwnerIsGoneIsAbandoned) {
    const Owner me = Owner::self();
    const std::string now = utc_timestamp();
    EXPECT_EQ(live_status(RunStatus::running, me, now, ""), RunStatus::running);
    EXPECT_EQ(live_status(RunStatus::complete, me, now, ""), RunStatus::complete);
    Owner reused = me;
    reused.start += "0";  // this pid, but another process
    EXPECT_EQ(live_status(RunStatus::running, reused, now, ""), RunStatus::abandoned);
    EXPECT_EQ(live_status(RunStatus::interrupted, reused, now, ""), RunStatus::interrupted);
}

TEST(LiveStatus, ElsewhereAnHourOfSilenceIsAbandoned) {
    const Owner elsewhere{"another-host", 1234, "x/1"};
    EXPECT_EQ(live_status(RunStatus::running, elsewhere, utc_timestamp(), ""), RunStatus::running);
    EXPECT_EQ(live_status(RunStatus::running, elsewhere, "2024-05-01T12:00:00.000Z", utc_timestamp()),
              RunStatus::running);
    EXPECT_EQ(live_status(RunStatus::running, elsewhere, "2024-05-01T12:00:00.000Z", ""), RunStatus::abandoned);
}

// The database's directory deleted mid-run: SQLite writes on into the unlinked file without an
// error, so the run ended 0 over nothing on disk. Ending the run says so.
TEST(Store, ARunWhoseDatabaseWasDeletedDoesNotEndAsIfStored) {
    test::TempDir dir;
    const std::string sub = dir.file("sub");
    std::filesystem::create_directory(sub);
    Store store = Store::open(sub + "/t.db", Store::Mode::create);
    const std::int64_t run = store.begin_run(sample_run());
    store.save_case(sample_case(run, "naive"));
    std::filesystem::remove_all(sub);
    try {
        store.finish_run(run, RunStatus::complete);
        FAIL() << "finish_run did not see the database gone";
    } catch (const EnvironmentError& e) {
        EXPECT_NE(std::string(e.what()).find("t.db: the database was deleted or moved"), std::string::npos) << e.what();
    }
}

TEST(Store, ARunWhoseDatabaseStaysEndsQuietly) {
    test::TempDir dir;
    Store store = Store::open(dir.file("t.db"), Store::Mode::create);
    const std::int64_t run = store.begin_run(sample_run());
    EXPECT_NO_THROW(store.finish_run(run, RunStatus::complete));
}

}  // namespace
}  // namespace memwall

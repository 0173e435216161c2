// Environment failures end a command with exit status 2 and one line that says what and where,
// and leave the database as it was: a read-only database or directory, a full disk, a damaged
// schema, a directory where a file belongs, and an output file that would replace the database.
#include <fcntl.h>
#include <linux/fs.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "process.hpp"
#include "synthetic_runs.hpp"

using namespace memwall::test;
using memwall::Store;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kRun = {
    "run",           "--family", "attention",  "--variant", "naive",       "--axis",     "heads=1",   "--axis",
    "seq_q=40",      "--axis",   "seq_k=72",   "--axis",    "head_dim=64", "--ceilings", "none",      "--quiet",
    "--min-samples", "2",        "--min-time", "0",         "--max-noise", "1",          "--timeout", "2"};

std::vector<std::string> with_db(const std::string& db, std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db});
    return args;
}

void make_db(const fs::path& path) {
    Store store = Store::open(path.string(), Store::Mode::create);
    add_synthetic_run(store, {});
}

// Exit status 2, one line on stderr naming `needle`, nothing on stdout.
void expect_failure(const Result& r, const std::string& needle) {
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    const auto l = lines(r.err);
    ASSERT_EQ(l.size(), 1u) << r.err;
    EXPECT_EQ(l[0].rfind("memwall: error: ", 0), 0u) << l[0];
    EXPECT_NE(l[0].find(needle), std::string::npos) << l[0];
    EXPECT_TRUE(r.out.empty()) << r.out;
}

// Each file of `path` (a file, or a directory's files) with a hash of its bytes: short to print.
std::vector<std::pair<std::string, std::size_t>> digest(const fs::path& path) {
    std::vector<std::pair<std::string, std::size_t>> out;
    if (fs::is_directory(path)) {
        for (const auto& [name, bytes] : snapshot(path)) out.emplace_back(name, std::hash<std::string>{}(bytes));
        return out;
    }
    std::ifstream in(path, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    out.emplace_back(path.filename().string(), std::hash<std::string>{}(bytes));
    return out;
}

// Runs memwall in `dir`; expects the failure and every file of `watched` exactly as it was.
void expect_refused(const fs::path& dir, const std::vector<std::string>& args, const std::string& needle,
                    const fs::path& watched) {
    const auto before = digest(watched);
    expect_failure(run_memwall(args, dir), needle);
    EXPECT_EQ(digest(watched), before);
}

// Makes a file or directory unwritable for this process, root included: the immutable
// attribute where the file system has it (root ignores permission bits), else the bits.
class Unwritable {
  public:
    explicit Unwritable(const fs::path& p) : path_(p) {
        if (::geteuid() != 0) {
            fs::permissions(p, fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                            fs::perm_options::remove);
            how_ = How::bits;
            return;
        }
        if (set_immutable(true)) how_ = How::immutable;
    }
    ~Unwritable() {
        if (how_ == How::immutable) set_immutable(false);
        if (how_ == How::bits) fs::permissions(path_, fs::perms::owner_write, fs::perm_options::add);
    }
    bool ok() const { return how_ != How::none; }

  private:
    bool set_immutable(bool on) {
        const int fd = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) return false;
        int flags = 0;
        bool done = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
        flags = on ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
        done = done && ::ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
        ::close(fd);
        return done;
    }
    enum class How { none, bits, immutable };
    fs::path path_;
    How how_ = How::none;
};

std::int64_t count_runs(const fs::path& db) {
    const Store store = Store::open(db.string(), Store::Mode::read_only);
    return static_cast<std::int64_t>(store.runs().size());
}

}  // namespace

TEST(CliEnvironment, AnOutputFileNeverReplacesTheDatabase) {
    TempDir d;
    make_db(d.path / "t.db");
    fs::create_directory(d.path / "sub");
    fs::create_symlink("t.db", d.path / "link.db");
    ASSERT_EQ(::link((d.path / "t.db").c_str(), (d.path / "hard.db").c_str()), 0);
    for (const std::string out : {"t.db", "link.db", "hard.db", "sub/../t.db", "t.db-wal", "t.db-shm"})
        expect_refused(d.path, {"--db", "t.db", "export", "latest", "--format", "csv", "--out", out}, out + " is ",
                       d.path / "t.db");
    expect_refused(d.path, with_db("t.db", {"run", "--benchmark_out=link.db"}), "link.db is the database t.db",
                   d.path / "t.db");
    make_db(d.path / "report.json");
    expect_refused(d.path, with_db("report.json", {"compare", "1", "1", "--report-dir", "."}),
                   "report.json is the database report.json", d.path / "report.json");
    EXPECT_FALSE(fs::exists(d.path / "report.md"));

    // An ordinary output file appears whole, with no temporary file left beside it.
    const Result ok =
        run_memwall({"--db", "t.db", "export", "latest", "--format", "csv", "--out", "sub/x.csv"}, d.path);
    EXPECT_EQ(ok.status, 0) << ok.err;
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(d.path / "sub")) names.push_back(e.path().filename().string());
    EXPECT_EQ(names, std::vector<std::string>{"x.csv"});
    EXPECT_GT(fs::file_size(d.path / "sub/x.csv"), 0u);
}

TEST(CliEnvironment, AReadOnlyDatabaseIsReadButNotWritten) {
    TempDir d;
    make_db(d.path / "t.db");
    const Unwritable ro(d.path / "t.db");
    if (!ro.ok()) GTEST_SKIP() << "cannot make a file read-only for root here (no immutable attribute)";
    expect_refused(d.path, with_db("t.db", kRun), "t.db: cannot write the database", d.path / "t.db");
    const Result show = run_memwall({"--db", "t.db", "show"}, d.path);
    EXPECT_EQ(show.status, 0) << show.err;
    EXPECT_EQ(count_runs(d.path / "t.db"), 1);
}

TEST(CliEnvironment, AReadOnlyDirectoryIsReadButNotWritten) {
    TempDir d;
    fs::create_directory(d.path / "ro");
    make_db(d.path / "ro/t.db");
    const Unwritable ro(d.path / "ro");
    if (!ro.ok()) GTEST_SKIP() << "cannot make a directory read-only for root here (no immutable attribute)";
    const auto before = digest(d.path / "ro");
    // Reading needs no -shm file there: the database is read as it stands.
    const Result show = run_memwall({"--db", "ro/t.db", "show"}, d.path);
    EXPECT_EQ(show.status, 0) << show.err;
    EXPECT_NE(show.out.find("test-host"), std::string::npos) << show.out;
    const Result exported = run_memwall({"--db", "ro/t.db", "export", "--format", "csv"}, d.path);
    EXPECT_EQ(exported.status, 0) << exported.err;
    expect_refused(d.path, with_db("ro/t.db", kRun), "ro: cannot write in the database's directory", d.path);
    expect_refused(d.path, {"--db", "ro/t.db", "export", "--out", "ro/x.json"}, "ro/x.json: cannot write", d.path);
    EXPECT_EQ(digest(d.path / "ro"), before);
}

TEST(CliEnvironment, AFullDiskFailsTheWriteAndKeepsTheDatabase) {
    TempDir d;
    const fs::path mnt = d.path / "small";
    fs::create_directory(mnt);
    if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=512k") != 0)
        GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno) << ")";
    struct Unmount {
        fs::path p;
        ~Unmount() { ::umount2(p.c_str(), MNT_DETACH); }
    } unmount{mnt};
    make_db(mnt / "t.db");
    const Result shown = run_memwall({"--db", "small/t.db", "show"}, d.path);
    {  // fill what is left
        std::ofstream fill(mnt / "fill", std::ios::binary);
        const std::string block(4096, 'x');
        while (fill.write(block.data(), block.size())) {}
    }
    expect_refused(d.path, with_db("small/t.db", kRun), "small/t.db: cannot write: the disk is full", mnt / "t.db");
    fs::remove(mnt / "fill");
    EXPECT_FALSE(fs::exists(mnt / "t.db-wal"));
    const Result after = run_memwall({"--db", "small/t.db", "show"}, d.path);
    EXPECT_EQ(after.out, shown.out);  // no run added
}

// Where no tmpfs can be mounted: a file size limit makes writes fail (EFBIG) in the same way.
TEST(CliEnvironment, AFileSizeLimitFailsTheWriteWithStatusTwo) {
    TempDir d;
    make_db(d.path / "t.db");
    const auto runs = count_runs(d.path / "t.db");
    rlimit old{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
    rlimit small = old;
    small.rlim_cur = 40 * 1024;  // room for the -shm file, not for a run's -wal frames
    const auto old_handler = ::signal(SIGXFSZ, SIG_IGN);
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    const Result r = run_memwall(with_db("t.db", kRun), d.path);
    ::setrlimit(RLIMIT_FSIZE, &old);
    ::signal(SIGXFSZ, old_handler);
    expect_failure(r, "t.db: ");
    // What was committed before the write failed is intact.
    EXPECT_GE(count_runs(d.path / "t.db"), runs);
    const Result show = run_memwall({"--db", "t.db", "show"}, d.path);
    EXPECT_EQ(show.status, 0) << show.err;
}

TEST(CliEnvironment, ADamagedSchemaIsRefusedBeforeARunIsStored) {
    TempDir d;
    make_db(d.path / "t.db");
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((d.path / "t.db").c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "DROP TABLE counters", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    const std::string why = "t.db: damaged database: table counters";
    // Refused before SQLite opens it for use: not even an empty -wal file appears.
    expect_refused(d.path, with_db("t.db", kRun), why, d.path);
    expect_refused(d.path, {"--db", "t.db", "show"}, why, d.path);
    expect_refused(d.path, {"--db", "t.db", "export"}, why, d.path);
}

// A FIFO or a device where a file belongs is refused before anything reads or writes it: a FIFO
// hung the command with no message, /dev/zero as a matrix read 1 GB, and a database linked to
// /dev/null made SQLite create /dev/null-journal.
TEST(CliEnvironment, ASpecialFileWhereAFileBelongs) {
    TempDir d;
    ASSERT_EQ(::mkfifo((d.path / "fifo").c_str(), 0600), 0);
    fs::create_symlink("/dev/null", d.path / "null.db");
    make_db(d.path / "t.db");
    const bool had_journal = fs::exists("/dev/null-journal");
    // The database is watched: the directory holds the FIFO, which a snapshot would wait on too.
    const fs::path db = d.path / "t.db";
    expect_refused(d.path, with_db("fifo", kRun), "fifo: is a FIFO (named pipe), not a regular file", db);
    expect_refused(d.path, {"--db", "fifo", "show"}, "fifo: is a FIFO", db);
    expect_refused(d.path, with_db("null.db", kRun), "null.db: is a character device, not a regular file", db);
    expect_refused(d.path, with_db("/dev/zero", kRun), "/dev/zero: is a character device", db);
    if (!had_journal) {
        EXPECT_FALSE(fs::exists("/dev/null-journal"));
    }
    const std::vector<std::string> spgemm = {"run", "--family",   "spgemm", "--variant",
                                             "esc", "--ceilings", "none",   "--quiet"};
    for (const std::string matrix : {"fifo", "/dev/zero"}) {
        std::vector<std::string> args = with_db("t.db", spgemm);
        args.insert(args.end(), {"--axis", "matrix=" + matrix});
        expect_refused(d.path, args, matrix + ": is a ", db);
    }
    expect_refused(d.path, with_db("t.db", {"ci", "--suite", "fifo", "--baseline", "main"}), "fifo: is a FIFO", db);
    expect_refused(d.path, {"--db", "t.db", "tune", "--replay", "fifo"}, "fifo: is a FIFO", db);
    EXPECT_EQ(std::vector<std::string>(1, "fifo"), [&] {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(d.path))
            if (e.path().filename() != "t.db" && e.path().filename() != "null.db") names.push_back(e.path().filename());
        return names;
    }());  // nothing was created beside them
}

TEST(CliEnvironment, ADirectoryWhereAFileBelongs) {
    TempDir d;
    fs::create_directory(d.path / "dir");
    make_db(d.path / "t.db");
    expect_refused(d.path, with_db("t.db", {"ci", "--suite", "dir", "--baseline", "main"}), "dir: is a directory",
                   d.path);
    expect_refused(d.path, with_db("dir", kRun), "dir: is a directory", d.path);
    expect_refused(d.path, {"--db", "dir", "show"}, "dir: is a directory", d.path);
    expect_refused(d.path, {"--db", "t.db", "export", "--out", "dir"}, "dir: is a directory", d.path / "t.db");
    expect_refused(d.path, {"--db", "t.db", "tune", "--replay", "dir"}, "dir: cannot read: Is a directory",
                   d.path / "t.db");
}

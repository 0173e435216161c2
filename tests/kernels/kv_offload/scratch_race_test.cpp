// Row 5 of docs/reliability.md raced for real: while `memwall run` creates, writes and reads its
// kv_offload scratch files, a second process with write access to the scratch directory renames
// each memwall-kv.* file away the moment it appears and puts a symbolic link to a file outside
// (or a FIFO) at its name, and now and then swaps the whole directory with another of its own.
// As root the racer runs as `nobody`, as the row's other user; otherwise as this user, which can
// do to the directory's names all that another user with write access could.
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <new>
#include <string>

#include <gtest/gtest.h>

#include "db_query.hpp"
#include "process.hpp"

using namespace memwall::test;
namespace fs = std::filesystem;

namespace {

// What the racer did, in memory shared with the test.
struct Tally {
    std::atomic<long> stolen{0}, swapped_dirs{0};
};

// Moves every regular memwall-kv.* file of `dir` away (to stolen.N) and puts a link to `victim`
// or a FIFO at its name; the rename and the new entry are what another user could do there.
void steal_files(const fs::path& dir, const fs::path& victim, Tally& tally) {
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (dfd < 0) return;
    DIR* list = ::fdopendir(::dup(dfd));
    while (const dirent* e = list ? ::readdir(list) : nullptr) {
        const std::string name = e->d_name;
        struct stat st {};
        if (!name.starts_with("memwall-kv.") || ::fstatat(dfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        const long n = tally.stolen.load();
        if (::renameat(dfd, name.c_str(), dfd, ("stolen." + std::to_string(n)).c_str()) != 0) continue;
        ++tally.stolen;
        if (n % 2 == 0)
            ::symlinkat(victim.c_str(), dfd, name.c_str());
        else
            ::mkfifoat(dfd, name.c_str(), 0666);
    }
    if (list) ::closedir(list);
    ::close(dfd);
}

[[noreturn]] void race(const fs::path& attic, const fs::path& victim, Tally& tally) {
    if (::geteuid() == 0) {
        const passwd* nobody = ::getpwnam("nobody");
        if (!nobody || ::setgroups(0, nullptr) != 0 || ::setgid(nobody->pw_gid) != 0 || ::setuid(nobody->pw_uid) != 0)
            ::_exit(1);
    }
    const fs::path scratch = attic / "scratch", spare = attic / "spare";
    for (long round = 0;; ++round) {
        steal_files(scratch, victim, tally);
        steal_files(spare, victim, tally);
        // Atomically, so the name never points nowhere: memwall keeps the directory it opened.
        if (round % 64 == 0 && ::renameat2(AT_FDCWD, scratch.c_str(), AT_FDCWD, spare.c_str(), RENAME_EXCHANGE) == 0)
            ++tally.swapped_dirs;
    }
}

std::string read_all(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

TEST(KvOffloadScratchRace, AnotherUserRacingTheScratchNamesNeverRedirectsMemwall) {
    TempDir d;
    const bool root = ::geteuid() == 0;
    const passwd* nobody = root ? ::getpwnam("nobody") : nullptr;
    if (root && !nobody) GTEST_SKIP() << "running as root without a user nobody to race as";
    ::chmod(d.path.c_str(), 0755);  // the racer passes through
    const fs::path attic = d.path / "attic", victim = d.path / "victim";
    for (const auto& dir : {attic, attic / "scratch", attic / "spare"}) {
        fs::create_directory(dir);
        ::chmod(dir.c_str(), 0755);  // the racer's own: writable by it alone, so memwall accepts it
        if (root) {
            ASSERT_EQ(::chown(dir.c_str(), nobody->pw_uid, nobody->pw_gid), 0);
        }
    }
    const std::string secret(1 << 16, 's');
    std::ofstream(victim, std::ios::binary) << secret;
    ::chmod(victim.c_str(), 0600);
    struct stat before {};
    ::stat(victim.c_str(), &before);
    // Every open of the victim is seen: memwall must never follow a link to it.
    const int watch = ::inotify_init1(IN_NONBLOCK);
    ASSERT_GE(watch, 0);
    ASSERT_GE(::inotify_add_watch(watch, victim.c_str(), IN_OPEN | IN_ACCESS | IN_MODIFY), 0);

    void* shared = ::mmap(nullptr, sizeof(Tally), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(shared, MAP_FAILED);
    Tally& tally = *new (shared) Tally;
    const pid_t racer = ::fork();
    ASSERT_GE(racer, 0);
    if (racer == 0) race(attic, victim, tally);

    // 32 problems, one scratch file each, read by every variant that reads the file.
    const fs::path work = d.path / "work";
    fs::create_directory(work);
    const Result r = run_memwall({"--db",
                                  "r.db",
                                  "run",
                                  "--family",
                                  "kv_offload",
                                  "--variant",
                                  "pread,mmap,uring,cached",
                                  "--scratch",
                                  (attic / "scratch").string(),
                                  "--axis",
                                  "context=128:4096:128",
                                  "--ceilings",
                                  "none",
                                  "--quiet",
                                  "--min-samples",
                                  "1",
                                  "--min-time",
                                  "0",
                                  "--timeout",
                                  "0.02"},
                                 work);
    ::kill(racer, SIGKILL);
    int st = 0;
    ::waitpid(racer, &st, 0);
    ASSERT_TRUE(WIFSIGNALED(st)) << "the racer could not become nobody";

    // The race happened: files were taken while memwall used them.
    EXPECT_GE(tally.stolen.load(), 8) << "the racer took too few files to test anything";
    std::cerr << "racer: " << tally.stolen.load() << " files renamed and replaced, " << tally.swapped_dirs.load()
              << " directory swaps\n";
    // No measurement lost: every case ok (a followed link is a wrong result, a FIFO a timeout).
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(query(work / "r.db", "SELECT count(*) FROM cases"), 128);
    EXPECT_EQ(query(work / "r.db", "SELECT count(*) FROM cases WHERE status = 'ok'"), 128) << r.out;
    // The victim was never opened, read or changed.
    inotify_event events[16];
    EXPECT_LT(::read(watch, events, sizeof events), 0) << "memwall opened the file a link pointed to";
    ::close(watch);
    struct stat after {};
    ::stat(victim.c_str(), &after);
    EXPECT_TRUE(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
    EXPECT_EQ(read_all(victim), secret);
    // Whatever memwall made and the racer moved away holds no data, no file of memwall's is left
    // under its name anywhere, and the racer's links and FIFOs are left alone.
    for (const auto& e : fs::recursive_directory_iterator(d.path)) {
        const auto s = fs::symlink_status(e.path());
        const std::string name = e.path().filename().string();
        if (fs::is_regular_file(s) && name.starts_with("stolen.")) {
            EXPECT_EQ(fs::file_size(e.path()), 0u) << e.path();
        }
        if (name.starts_with("memwall-kv.")) {
            EXPECT_TRUE(fs::is_symlink(s) || fs::is_fifo(s)) << e.path() << " left behind";
        }
    }
    ::munmap(shared, sizeof(Tally));
}

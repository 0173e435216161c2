#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/machine.hpp"
#include "core/owner.hpp"
#include "kernels/kv_offload/scratch_name.hpp"
#include "kv_test_support.hpp"

using namespace memwall;
namespace fs = std::filesystem;

namespace {

void expect_environment_error(const fs::path& dir, std::uint64_t bytes, const std::string& needle) {
    try {
        check_scratch_directory(dir, bytes);
        ADD_FAILURE() << dir << " accepted; expected " << needle;
    } catch (const EnvironmentError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find(needle), std::string::npos) << m;
        EXPECT_NE(m.find(dir.string()), std::string::npos) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
}

std::string ticks_of(std::int64_t pid) {
    const std::string s = process_start(pid);
    return s.substr(s.find('/') + 1);
}

void touch(const fs::path& p) { std::ofstream(p) << "x"; }

}  // namespace

TEST(KvOffloadScratch, RefusesUnusableDirectories) {
    kv_test::ScratchDir d;
    expect_environment_error(d.path / "missing", 1, "is not a directory");
    touch(d.path / "plain");
    expect_environment_error(d.path / "plain", 1, "is not a directory");
    // Files cannot be created in /proc, even by root.
    expect_environment_error("/proc", 1, "cannot create files in scratch directory");
    if (::geteuid() != 0) {
        fs::create_directory(d.path / "ro");
        fs::permissions(d.path / "ro", fs::perms::owner_read | fs::perms::owner_exec);
        expect_environment_error(d.path / "ro", 1, "cannot create files in scratch directory");
    }
    expect_environment_error(d.path, std::uint64_t{1} << 62, "free");
    // Where any user may rename memwall's files, it does not make them; with the sticky bit it does.
    fs::create_directory(d.path / "open");
    ::chmod((d.path / "open").c_str(), 0777);
    expect_environment_error(d.path / "open", 1, "writable by every user and has no sticky bit");
    const char byte = 1;
    EXPECT_THROW(ScratchFile(d.path / "open", &byte, 1), EnvironmentError);
    ::chmod((d.path / "open").c_str(), 01777);
    EXPECT_NO_THROW(check_scratch_directory(d.path / "open", 1));
    fs::remove(d.path / "open");
    // A file by the probe's old fixed name (another user can make it first) is no obstacle.
    touch(d.path / ("memwall-kv.probe." + std::to_string(::getpid())));
    EXPECT_NO_THROW(check_scratch_directory(d.path, 4096));
    EXPECT_EQ(d.files(), 2u);  // the probe file is gone, "plain" and the other stay
}

TEST(KvOffloadScratch, FileHoldsTheDataAndGoesWithItsOwner) {
    kv_test::ScratchDir d;
    const std::string data(10000, 'k');
    fs::path path;
    {
        ScratchFile f(d.path, data.data(), data.size());
        path = f.path();
        EXPECT_TRUE(parse_scratch_name(path.filename().string())) << path;
        std::ifstream in(path, std::ios::binary);
        EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), data);
        EXPECT_EQ(f.os_pages(), (data.size() + static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)) - 1) /
                                    static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)));
    }
    EXPECT_FALSE(fs::exists(path));
    EXPECT_EQ(d.files(), 0u);
}

// A file whose owner has exited is removed by the next ScratchFile; files of a live owner, of
// another host, and other names stay.
TEST(KvOffloadScratch, RemovesStaleFilesOfGoneOwnersOnly) {
    kv_test::ScratchDir d;
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    const std::string child_ticks = ticks_of(child);  // read while it is a zombie, not yet reaped
    int status = 0;
    ::waitpid(child, &status, 0);
    const std::string host = host_name();
    const auto self = static_cast<std::int64_t>(::getpid());
    const fs::path stale = d.path / ("memwall-kv." + host + "." + std::to_string(child) + "." + child_ticks + ".0");
    const fs::path live = d.path / ("memwall-kv." + host + "." + std::to_string(self) + "." + ticks_of(self) + ".99");
    const fs::path reused_pid = d.path / ("memwall-kv." + host + "." + std::to_string(self) + ".1.0");
    const fs::path other_host = d.path / ("memwall-kv.elsewhere." + std::to_string(child) + ".1.0");
    const fs::path other_name = d.path / "notes.txt";
    for (const auto& p : {stale, live, reused_pid, other_host, other_name}) touch(p);
    ASSERT_FALSE(child_ticks.empty());
    {
        const char byte = 1;
        ScratchFile f(d.path, &byte, 1);
        EXPECT_FALSE(fs::exists(stale));
        EXPECT_FALSE(fs::exists(reused_pid));  // this pid, but started at another time
        EXPECT_TRUE(fs::exists(live));
        EXPECT_TRUE(fs::exists(other_host));
        EXPECT_TRUE(fs::exists(other_name));
    }
}

// Names any user can make in a shared directory: none makes the cleanup throw, and only this
// user's regular files are removed (never a directory, link, FIFO, another user's file, even for
// root, or a file with a second link).
TEST(KvOffloadScratch, TheCleanupRemovesOnlyThisUsersStaleRegularFiles) {
    kv_test::ScratchDir d;
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    const std::string child_ticks = ticks_of(child);
    int status = 0;
    ::waitpid(child, &status, 0);
    const std::string stale_prefix =
        "memwall-kv." + host_name() + "." + std::to_string(child) + "." + child_ticks + ".";
    const fs::path huge_pid = d.path / ("memwall-kv." + host_name() + ".99999999999999999999999.1.0");
    const fs::path dir = d.path / (stale_prefix + "1"), link = d.path / (stale_prefix + "2");
    const fs::path fifo = d.path / (stale_prefix + "3"), linked = d.path / (stale_prefix + "4");
    const fs::path others = d.path / (stale_prefix + "5"), mine = d.path / (stale_prefix + "6");
    touch(huge_pid);
    fs::create_directory(dir);
    touch(d.path / "target");
    fs::create_symlink(d.path / "target", link);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    touch(linked);
    fs::create_hard_link(linked, d.path / "second-link");
    touch(others);
    touch(mine);
    const bool root = ::geteuid() == 0;
    if (root) {
        ASSERT_EQ(::chown(others.c_str(), 65534, 65534), 0);
    }
    EXPECT_EQ(remove_stale_scratch_files(d.path), root ? 1u : 2u);
    for (const auto& p : {huge_pid, dir, link, fifo, linked}) EXPECT_TRUE(fs::exists(fs::symlink_status(p))) << p;
    EXPECT_FALSE(fs::exists(mine));
    if (!root) GTEST_SKIP() << "only root can give a file to another user: that user's file was not tried";
    EXPECT_TRUE(fs::exists(others));
}

// Another user with write access to the directory renames the file away and puts a link to a
// file of theirs in its place: memwall still reads its own bytes through its descriptor, never
// removes the link, and empties its file wherever it went.
TEST(KvOffloadScratch, TheFileIsUsedThroughItsDescriptorNotItsName) {
    kv_test::ScratchDir d;
    const std::string data(8192, 'k'), decoy(8192, 'x');
    std::ofstream(d.path / "decoy") << decoy;
    fs::path moved = d.path / "moved", name;
    {
        ScratchFile f(d.path, data.data(), data.size());
        name = f.path();
        fs::rename(name, moved);
        fs::create_symlink(d.path / "decoy", name);
        std::string back(data.size(), '\0');
        ASSERT_EQ(::pread(f.fd(), back.data(), back.size(), 0), static_cast<ssize_t>(back.size()));
        EXPECT_EQ(back, data);
        if (const int direct = f.open_direct(); direct >= 0) {
            struct stat a {
            }, b{};
            ::fstat(direct, &a);
            ::stat(moved.c_str(), &b);
            EXPECT_EQ(a.st_ino, b.st_ino);
            ::close(direct);
        }
    }
    EXPECT_TRUE(fs::is_symlink(name));
    EXPECT_EQ(fs::file_size(d.path / "decoy"), decoy.size());
    EXPECT_EQ(fs::file_size(moved), 0u);
}

TEST(KvOffloadScratch, EvictionEmptiesThePageCacheOnADisk) {
    kv_test::ScratchDir d;
    const std::string data(1 << 20, 'e');
    ScratchFile f(d.path, data.data(), data.size());
    if (f.in_memory()) GTEST_SKIP() << "the temp directory is in memory";
    {
        std::ifstream in(f.path(), std::ios::binary);
        std::string back(std::istreambuf_iterator<char>(in), {});
    }
    EXPECT_GT(f.resident_pages(), 0u);
    EXPECT_EQ(f.evict(), 0u);
}

TEST(KvOffloadScratch, TmpfsIsNoted) {
    struct stat st {};
    if (::stat("/dev/shm", &st) != 0) GTEST_SKIP() << "no /dev/shm";
    const char byte = 1;
    ScratchFile f("/dev/shm", &byte, 1);
    if (!f.in_memory()) GTEST_SKIP() << "/dev/shm is not tmpfs here";
    EXPECT_NE(f.notes().find("tmpfs"), std::string::npos) << f.notes();
    EXPECT_EQ(f.evict(), 1u);  // tmpfs has no other place for the page
}

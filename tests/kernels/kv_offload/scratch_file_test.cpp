#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/machine.hpp"
#include "core/owner.hpp"
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
    EXPECT_NO_THROW(check_scratch_directory(d.path, 4096));
    EXPECT_EQ(d.files(), 1u);  // the probe file is gone, "plain" stays
}

TEST(KvOffloadScratch, FileHoldsTheDataAndGoesWithItsOwner) {
    kv_test::ScratchDir d;
    const std::string data(10000, 'k');
    fs::path path;
    {
        ScratchFile f(d.path, data.data(), data.size());
        path = f.path();
        EXPECT_TRUE(is_scratch_file_name(path.filename().string())) << path;
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

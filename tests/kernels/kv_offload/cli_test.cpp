// The memwall binary on the kv_offload family: its default sweep passes and leaves no scratch
// file behind; a bad scratch directory stops the run with one line and exit status 2 before
// anything is measured.
#include <stdlib.h>

#include <gtest/gtest.h>

#include "process.hpp"

using namespace memwall::test;

namespace {

const std::vector<std::string> quick = {"--ceilings", "none", "--quiet", "--min-samples", "3"};

std::vector<std::string> run_args(std::vector<std::string> extra = {}) {
    std::vector<std::string> a = {"run", "--family", "kv_offload", "--db", "runs.db"};
    a.insert(a.end(), quick.begin(), quick.end());
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}

Result run_with_scratch(const std::string& scratch, const TempDir& cwd, std::vector<std::string> extra = {}) {
    ::setenv("MEMWALL_SCRATCH", scratch.c_str(), 1);
    Result r = run_memwall(run_args(std::move(extra)), cwd.path);
    ::unsetenv("MEMWALL_SCRATCH");
    return r;
}

void expect_refused(const Result& r, const TempDir& cwd, const std::string& needle) {
    EXPECT_EQ(r.status, 2) << r.err;
    const auto l = lines(r.err);
    ASSERT_EQ(l.size(), 1u) << r.err;
    EXPECT_NE(l[0].find(needle), std::string::npos) << l[0];
    EXPECT_TRUE(snapshot(cwd.path).empty()) << "the database was created";
}

}  // namespace

TEST(KvOffloadCli, DefaultSweepPassesAndLeavesNoFile) {
    TempDir cwd, scratch;
    const Result r = run_with_scratch(scratch.path.string(), cwd);
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    for (const char* v : {"resident", "pread", "mmap", "uring", "cached"})
        EXPECT_NE(r.out.find(v), std::string::npos) << r.out;
    EXPECT_TRUE(snapshot(scratch.path).empty());
}

TEST(KvOffloadCli, TheScratchOptionNamesTheDirectory) {
    TempDir cwd, scratch;
    const Result r = run_memwall(run_args({"--scratch", scratch.path.string()}), cwd.path);
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    EXPECT_TRUE(snapshot(scratch.path).empty());
    TempDir fresh;
    expect_refused(run_memwall(run_args({"--scratch", "/proc"}), fresh.path), fresh,
                   "cannot create files in scratch directory /proc");
}

TEST(KvOffloadCli, BadScratchDirectoriesStopTheRun) {
    TempDir cwd, scratch;
    expect_refused(run_with_scratch("/proc", cwd), cwd, "cannot create files in scratch directory /proc");
    expect_refused(run_with_scratch((scratch.path / "missing").string(), cwd), cwd, "is not a directory");
    // 2^28 tokens of 1024 heads: a 256 TiB file.
    expect_refused(
        run_with_scratch(scratch.path.string(), cwd, {"--axis", "context=268435456", "--axis", "heads=1024"}), cwd,
        "free");
}

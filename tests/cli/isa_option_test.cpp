// --isa and MEMWALL_ISA: the path the CPU kernels run, shown by list and stored with every run.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/isa_option.hpp"
#include "core/errors.hpp"
#include "process.hpp"

using namespace memwall;
using namespace memwall::test;

namespace {

TEST(IsaOption, TakesTheValueInEitherSpelling) {
    EXPECT_EQ(cli::isa_from_arguments({"run", "--isa", "avx2", "-f", "stream"}), Isa::avx2);
    EXPECT_EQ(cli::isa_from_arguments({"tune", "--isa=avx512"}), Isa::avx512);
    EXPECT_EQ(cli::isa_from_arguments({"run", "-f", "stream"}), std::nullopt);
    EXPECT_THROW(cli::isa_from_arguments({"run", "--isa", "sse"}), UsageError);
    EXPECT_THROW(cli::isa_from_arguments({"run", "--isa"}), UsageError);
}

TEST(IsaOption, ListShowsThePathTheKernelsRun) {
    TempDir d;
    const Result r = run_memwall({"list"}, d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("CPU kernels: " + std::string(isa_name(host_isa()))), std::string::npos) << r.out;
}

TEST(IsaOption, ARunStoresThePathItRan) {
    TempDir d;
    const Result r = run_memwall(
        {"--db",          "t.db",   "run",        "--isa",  "avx2",        "--family",   "stream",    "--variant",
         "loop",          "--axis", "n=4096",     "--axis", "op=copy",     "--ceilings", "none",      "--quiet",
         "--min-samples", "2",      "--min-time", "0",      "--max-noise", "1",          "--timeout", "2"},
        d.path);
    ASSERT_EQ(r.status, 0) << r.err;
    const Result j = run_memwall({"--db", "t.db", "export", "--format", "json"}, d.path);
    ASSERT_EQ(j.status, 0) << j.err;
    const auto properties = nlohmann::json::parse(j.out).at("run").at("properties");
    EXPECT_EQ(properties.at("cpu.isa"), "avx2");
    EXPECT_EQ(properties.at("cpu.host_isa"), isa_name(host_isa()));
}

TEST(IsaOption, AskingAboveTheHostIsAOneLineUsageError) {
    if (host_isa() == Isa::avx512) GTEST_SKIP() << "this host runs avx512";
    TempDir d;
    const Result r = run_memwall({"--db", "t.db", "run", "--isa", "avx512", "--family", "stream"}, d.path);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--isa avx512 asks for AVX-512"), std::string::npos) << r.err;
    EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(snapshot(d.path).empty());  // refused before the database is opened
}

}  // namespace

// `memwall import` end to end: a run's own Google Benchmark output and an nvbench file become
// runs that compare accepts; malformed input exits 2 with one line and stores nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "process.hpp"

using namespace memwall::test;
using nlohmann::json;

namespace {

const std::string kData = std::string(MEMWALL_TEST_DATA) + "/import/";

std::size_t runs_in(const std::filesystem::path& dir) {
    const Result r = run_memwall({"--db", "t.db", "export", "--format", "json", "latest"}, dir);
    if (r.status != 0) return 0;
    return json::parse(r.out).at("run").at("id").get<std::size_t>();
}

}  // namespace

TEST(Import, GoogleBenchmarkOutputOfARunKeepsItsCasesAndCompares) {
    TempDir d;
    const Result run = run_memwall({"--db",
                                    "t.db",
                                    "run",
                                    "--family",
                                    "stream",
                                    "--variant",
                                    "loop",
                                    "--axis",
                                    "n=4096",
                                    "--axis",
                                    "op=copy,triad",
                                    "--ceilings",
                                    "none",
                                    "--quiet",
                                    "--min-samples",
                                    "2",
                                    "--min-time",
                                    "0",
                                    "--max-noise",
                                    "1",
                                    "--timeout",
                                    "2",
                                    "--benchmark_repetitions=3",
                                    "--benchmark_out=gb.json",
                                    "--benchmark_out_format=json"},
                                   d.path);
    ASSERT_EQ(run.status, 0) << run.err;
    const Result imp =
        run_memwall({"--db", "t.db", "import", "gb.json", "--format", "gbench", "--tag", "side=gb"}, d.path);
    ASSERT_EQ(imp.status, 0) << imp.err;
    EXPECT_NE(imp.out.find("run 2 in t.db: 2 cases imported from gb.json (gbench), not checked against a reference"),
              std::string::npos)
        << imp.out;

    const json doc = json::parse(run_memwall({"--db", "t.db", "export", "--format", "json", "2"}, d.path).out);
    EXPECT_EQ(doc.at("run").at("tags").at("imported"), "gbench");
    EXPECT_EQ(doc.at("run").at("tags").at("side"), "gb");
    for (const auto& c : doc.at("cases")) {
        EXPECT_EQ(c.at("family"), "stream");
        EXPECT_EQ(c.at("status"), "unchecked");
        EXPECT_EQ(c.at("summary").at("n"), 3);  // one per repetition
    }

    // The import holds the run's cases, keyed as the run keys them.
    const auto keys = [&](const char* id) {
        std::set<std::string> k;
        for (const auto& c :
             json::parse(run_memwall({"--db", "t.db", "export", "--format", "json", id}, d.path).out).at("cases"))
            k.insert(c.at("family").dump() + c.at("variant").dump() + c.at("backend").dump() + c.at("problem").dump() +
                     c.at("config").dump());
        return k;
    };
    EXPECT_EQ(keys("1"), keys("2"));

    // A second import of the file is a run that compare matches case by case, once allowed to
    // compare unchecked cases.
    ASSERT_EQ(run_memwall({"--db", "t.db", "import", "gb.json", "--format", "gbench"}, d.path).status, 0);
    const Result refused = run_memwall({"--db", "t.db", "compare", "2", "3"}, d.path);
    EXPECT_EQ(refused.status, 2) << refused.out;
    EXPECT_NE(refused.err.find("--allow-unchecked"), std::string::npos) << refused.err;
    const Result cmp =
        run_memwall({"--db", "t.db", "compare", "2", "3", "--format", "json", "--allow-unchecked"}, d.path);
    EXPECT_EQ(cmp.status, 0) << cmp.err;
    EXPECT_EQ(json::parse(cmp.out).at("cases").size(), 2u) << cmp.out;
}

TEST(Import, NvbenchFileBecomesARunThatComparesWithAnother) {
    TempDir d;
    for (int i = 0; i < 2; ++i) {
        const Result imp =
            run_memwall({"--db", "t.db", "import", kData + "nvbench.json", "--format", "nvbench"}, d.path);
        ASSERT_EQ(imp.status, 0) << imp.err;
    }
    const Result show = run_memwall({"--db", "t.db", "show", "2"}, d.path);
    ASSERT_EQ(show.status, 0) << show.err;
    EXPECT_NE(show.out.find("nvbench/copy_sweep/cuda"), std::string::npos) << show.out;
    const Result cmp = run_memwall({"--db", "t.db", "compare", "1", "2", "--allow-unchecked"}, d.path);
    EXPECT_EQ(cmp.status, 0) << cmp.err << cmp.out;
}

TEST(Import, MalformedInputExitsTwoWithOneLineAndStoresNothing) {
    TempDir d;
    for (const char* name : {"truncated.json", "not_an_object.json", "empty.json", "nvbench_no_time.json"}) {
        const Result r =
            run_memwall({"--db", "t.db", "import", kData + "malformed/" + name, "--format", "nvbench"}, d.path);
        EXPECT_EQ(r.status, 2) << name << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
    }
    for (const char* path : {"no-such.json", "."}) {
        const Result r = run_memwall({"--db", "t.db", "import", path, "--format", "gbench"}, d.path);
        EXPECT_EQ(r.status, 2) << path << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
    const Result format = run_memwall({"--db", "t.db", "import", kData + "nvbench.json", "--format", "csv"}, d.path);
    EXPECT_EQ(format.status, 2) << format.err;
    EXPECT_EQ(runs_in(d.path), 0u);
}

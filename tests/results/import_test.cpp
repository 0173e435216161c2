#include "results/import.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/params.hpp"
#include "results/compare.hpp"
#include "results/export.hpp"
#include "tests/support/temp_dir.hpp"

namespace memwall {
namespace {

using test::read_file;
using test::TempDir;

const std::string kData = std::string(MEMWALL_TEST_DATA) + "/import/";
const std::string kFuzzSeeds = std::string(MEMWALL_TEST_DATA) + "/fuzz/imported_results/";

// A run as memwall stores it: repetitions of samples, a tuned case, a case whose problem holds a
// path with slashes, a wrong result.
std::int64_t build_run(Store& store) {
    RunInfo r;
    r.host = "ci-runner-1";
    r.backend = "cpu";
    r.device = "AMD EPYC 9B14, 2 threads";
    r.command_line = "memwall run";
    r.memwall_version = "0.1.0";
    const std::int64_t run = store.begin_run(r);
    const auto save = [&](CaseKey key, CaseStatus status, std::string message,
                          std::vector<std::vector<double>> samples) {
        CaseRecord k;
        k.run_id = run;
        k.key = std::move(key);
        k.status = status;
        k.message = std::move(message);
        k.samples = std::move(samples);
        store.save_case(k);
    };
    save({"attention", "naive", "cpu", R"({"b":1,"d":64,"dtype":"fp32","s":1024})", "{}"}, CaseStatus::ok, "",
         {{0.025, 0.0275, 0.0225}, {0.03, 0.02}});
    save({"attention", "flash", "cpu", R"({"b":1,"d":64,"dtype":"fp32","s":1024})", R"({"Bc":64,"Br":32})"},
         CaseStatus::ok, "", {{0.008, 0.01, 0.012}});
    save({"spgemm", "esc", "cpu", R"({"b":"A","matrix":"data/m/ring.mtx","scale":0.5})", "{}"}, CaseStatus::ok, "",
         {{0.002, 0.003}});
    save({"conv", "im2win", "cpu", R"({"C":3,"H":32})", "{}"}, CaseStatus::wrong_result, "relative L2 error 3e-2", {});
    return run;
}

std::string gbench_export(const Store& store, std::int64_t run) {
    std::ostringstream out;
    export_run(store, run, ExportFormat::gbench, out, {});
    return out.str();
}

// Exported as Google Benchmark JSON and read back, every case keeps its key, its status and its
// samples (each becomes a repetition of one), so its median.
TEST(ImportGbench, RoundTripsAnExportedRun) {
    TempDir dir;
    Store store = Store::open(dir.file("r.db"), Store::Mode::create);
    const std::int64_t run = build_run(store);
    const ImportedRun imported = parse_import(ImportFormat::gbench, gbench_export(store, run), "gb.json");

    const std::vector<CaseRecord> original = store.cases(run);
    ASSERT_EQ(imported.cases.size(), original.size());
    const std::int64_t id = store_imported_run(store, imported);
    const std::vector<CaseRecord> back = store.cases(id);
    ASSERT_EQ(back.size(), original.size());
    for (const CaseRecord& o : original) {
        const auto it = std::find_if(back.begin(), back.end(), [&](const CaseRecord& b) { return b.key == o.key; });
        ASSERT_NE(it, back.end()) << o.key.family << "/" << o.key.variant << " " << o.key.problem << " "
                                  << o.key.config;
        EXPECT_EQ(it->status, o.status == CaseStatus::ok ? CaseStatus::unchecked : o.status);
        EXPECT_EQ(it->summary.n, o.summary.n);
        EXPECT_DOUBLE_EQ(it->summary.median, o.summary.median);
        if (o.status == CaseStatus::ok)
            EXPECT_NE(it->message.find("not checked against a reference"), std::string::npos) << it->message;
        else
            EXPECT_EQ(it->message, o.message);
    }
    const RunInfo info = *store.run(id);
    EXPECT_EQ(info.status, RunStatus::complete);
    EXPECT_EQ(info.tags.at("imported"), "gbench");
    EXPECT_EQ(info.tags.at("imported_from"), "gb.json");
    EXPECT_EQ(info.host, "ci-runner-1");
    EXPECT_EQ(info.device, "AMD EPYC 9B14, 2 threads");

    // compare accepts the import against the run it came from: the same samples, no regression.
    const Comparison c = compare_runs(load_run(store, run), load_run(store, id), CompareOptions{});
    EXPECT_EQ(c.cases.size(), 4u);
    EXPECT_TRUE(c.only_in_base.empty());
    EXPECT_FALSE(c.regression());
}

// As `memwall run --benchmark_out` writes it: one iteration entry per repetition, Google
// Benchmark's suffixes on the name, aggregates that are computed again rather than read.
TEST(ImportGbench, ReadsMemwallRunOutput) {
    const std::string text = R"({
      "context": {"date": "2026-11-28T10:00:00+00:00", "host_name": "vm-1", "num_cpus": 2},
      "benchmarks": [
        {"name": "stream/loop/cpu/n=1024,op=triad/iterations:1/repeats:2/manual_time",
         "run_name": "stream/loop/cpu/n=1024,op=triad/iterations:1/repeats:2/manual_time", "run_type": "iteration",
         "repetitions": 2, "repetition_index": 0, "iterations": 1, "real_time": 2.0, "cpu_time": 2.0, "time_unit": "us"},
        {"name": "stream/loop/cpu/n=1024,op=triad/iterations:1/repeats:2/manual_time",
         "run_name": "stream/loop/cpu/n=1024,op=triad/iterations:1/repeats:2/manual_time", "run_type": "iteration",
         "repetitions": 2, "repetition_index": 1, "iterations": 1, "real_time": 4.0, "cpu_time": 4.0, "time_unit": "us"},
        {"name": "stream/loop/cpu/n=1024,op=triad/iterations:1/repeats:2/manual_time_mean",
         "run_name": "stream/loop/cpu/n=1024,op=triad/iterations:1/repeats:2/manual_time", "run_type": "aggregate",
         "aggregate_name": "mean", "iterations": 2, "real_time": 99.0, "cpu_time": 99.0, "time_unit": "us"},
        {"name": "BM_memcpy/8/real_time", "run_type": "iteration", "iterations": 1000, "real_time": 12.5,
         "cpu_time": 12.5, "time_unit": "ns"}
      ]})";
    const ImportedRun r = parse_import(ImportFormat::gbench, text, "out.json");
    ASSERT_EQ(r.cases.size(), 2u);
    const CaseRecord& triad = r.cases[0];
    EXPECT_EQ(triad.key.family, "stream");
    EXPECT_EQ(triad.key.variant, "loop");
    EXPECT_EQ(triad.key.backend, "cpu");
    EXPECT_EQ(triad.key.problem, R"({"n":1024,"op":"triad"})");
    EXPECT_EQ(triad.key.config, "{}");
    ASSERT_EQ(triad.samples.size(), 2u);
    EXPECT_DOUBLE_EQ(triad.samples[0][0], 2e-6);
    EXPECT_DOUBLE_EQ(triad.samples[1][0], 4e-6);
    const CaseRecord& memcpy = r.cases[1];
    EXPECT_EQ(memcpy.key.family, "gbench");
    EXPECT_EQ(memcpy.key.variant, "BM_memcpy");
    EXPECT_EQ(memcpy.key.problem, R"({"args":"8"})");
    EXPECT_DOUBLE_EQ(memcpy.samples.at(0).at(0), 12.5e-9);
    EXPECT_EQ(r.run.host, "vm-1");
    EXPECT_EQ(r.run.device, "vm-1, 2 CPUs");
    EXPECT_EQ(r.run.tags.at("measured_on"), "2026-11-28T10:00:00+00:00");
}

// Names that differ only by Google Benchmark's suffixes are one case; a field of another type
// than the format's is read as absent, never trusted.
TEST(ImportGbench, SuffixesShareACaseAndTypesAreNotTrusted) {
    const ImportedRun r = parse_import(ImportFormat::gbench, read_file(kFuzzSeeds + "duplicate_names.json"), "d.json");
    ASSERT_EQ(r.cases.size(), 1u);
    EXPECT_EQ(r.cases[0].samples.size(), 2u);
    const ImportedRun w = parse_import(ImportFormat::gbench, read_file(kFuzzSeeds + "wrong_types.json"), "w.json");
    ASSERT_EQ(w.cases.size(), 1u);
    EXPECT_EQ(w.cases[0].status, CaseStatus::unchecked);  // "error_occurred": "yes" is not a boolean
    EXPECT_EQ(w.run.host, "unknown");
    // A time that is no finite number is refused; an axis value that is none stays text.
    EXPECT_THROW(parse_import(ImportFormat::nvbench, read_file(kFuzzSeeds + "nvbench_odd_values.json"), "n.json"),
                 InputError);
}

// tests/data/import/nvbench.json follows nvbench's JSON printer (file version 1.0.0).
TEST(ImportNvbench, ReadsEveryStateWithItsAxesAndGpuTime) {
    const ImportedRun r = parse_import(ImportFormat::nvbench, read_file(kData + "nvbench.json"), "nvbench.json");
    ASSERT_EQ(r.cases.size(), 3u);
    EXPECT_EQ(r.run.device, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(r.run.backend, "cuda");
    EXPECT_EQ(r.run.tags.at("imported"), "nvbench");
    const CaseRecord& small = r.cases[0];
    EXPECT_EQ(small.key.family, "nvbench");
    EXPECT_EQ(small.key.variant, "copy_sweep");
    EXPECT_EQ(small.key.backend, "cuda");
    EXPECT_EQ(small.key.problem, R"({"Elements":1048576,"T":"F32"})");
    EXPECT_EQ(small.status, CaseStatus::unchecked);
    ASSERT_EQ(small.samples.size(), 1u);
    EXPECT_DOUBLE_EQ(small.samples[0][0], 8.731e-06);
    EXPECT_NE(small.message.find("of 18464 samples"), std::string::npos) << small.message;
    EXPECT_NE(small.message.find("relative stdev 1.23%"), std::string::npos) << small.message;
    EXPECT_DOUBLE_EQ(r.cases[1].samples.at(0).at(0), 4.5134e-05);
    const CaseRecord& skipped = r.cases[2];
    EXPECT_EQ(skipped.key.variant, "reduce");
    EXPECT_EQ(skipped.key.problem, R"({"Scale":0.5})");
    EXPECT_EQ(skipped.status, CaseStatus::skipped);
    EXPECT_EQ(skipped.message, "nvbench skipped it: Not enough device memory.");
}

// Two imports of one nvbench file are stored as runs that compare accepts, case by case.
TEST(ImportNvbench, StoredRunsCompare) {
    TempDir dir;
    Store store = Store::open(dir.file("r.db"), Store::Mode::create);
    const ImportedRun r = parse_import(ImportFormat::nvbench, read_file(kData + "nvbench.json"), "nvbench.json");
    const std::int64_t a = store_imported_run(store, r), b = store_imported_run(store, r);
    const Comparison c = compare_runs(load_run(store, a), load_run(store, b), CompareOptions{});
    EXPECT_EQ(c.cases.size(), 3u);  // every state, the skipped one too
    EXPECT_FALSE(c.regression());
}

// Every malformed file is one InputError of one line, naming the file.
TEST(Import, MalformedFilesAreOneLineInputErrors) {
    const std::vector<std::pair<std::string, ImportFormat>> files = {
        {"truncated.json", ImportFormat::gbench},
        {"truncated.json", ImportFormat::nvbench},
        {"not_an_object.json", ImportFormat::gbench},
        {"not_an_object.json", ImportFormat::nvbench},
        {"empty.json", ImportFormat::gbench},
        {"empty.json", ImportFormat::nvbench},
        {"gbench_bad_unit.json", ImportFormat::gbench},
        {"gbench_no_time.json", ImportFormat::gbench},
        {"nvbench_no_time.json", ImportFormat::nvbench},
        {"gbench_bad_unit.json", ImportFormat::nvbench},
        {"number_out_of_range.json", ImportFormat::gbench},
        {"number_out_of_range.json", ImportFormat::nvbench},
    };
    for (const auto& [name, format] : files) {
        const std::string path = kData + "malformed/" + name;
        try {
            parse_import(format, read_file(path), path);
            ADD_FAILURE() << name << " as " << to_string(format) << " was accepted";
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        }
    }
}

TEST(Import, FormatNamesRoundTrip) {
    for (ImportFormat f : {ImportFormat::gbench, ImportFormat::nvbench}) EXPECT_EQ(import_format_from(to_string(f)), f);
    EXPECT_EQ(import_format_from("csv"), std::nullopt);
}

}  // namespace
}  // namespace memwall

#include "results/export.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "results/sqlite_statement.hpp"
#include "tests/support/temp_dir.hpp"

namespace memwall {
namespace {

using test::read_file;
using test::TempDir;
using test::write_file;

const std::string kGoldenDir = std::string(MEMWALL_TEST_DATA) + "/export/";

// A small run with fixed timestamps: every case status, a cuda-emu case, a one-sample case,
// and a message that needs CSV quoting.
std::int64_t build_run(Store& store) {
    RunInfo r;
    r.started_at = "2024-05-01T10:00:00.000Z";
    r.host = "ci-runner-1";
    r.backend = "cpu,cuda-emu";
    r.device = "AMD EPYC 9B14, 2 threads";
    r.git_revision = "0123abcd";
    r.command_line = "memwall run --family attention,conv --backend cpu,cuda-emu";
    r.memwall_version = "0.1.0";
    r.sweep = R"({"families":["attention","conv"],"seed":1})";
    r.tags = {{"branch", "main"}, {"num_cpus", "2"}, {"mhz_per_cpu", "2450"}, {"library_build_type", "release"}};
    const std::int64_t run = store.begin_run(r);
    Statement(store.handle(), "UPDATE runs SET finished_at = '2024-05-01T10:05:00.250Z', status = 'complete'").run();
    store.set_run_properties(run, {{"cpu.model", "AMD EPYC 9B14"},
                                   {"cpu.threads", "2"},
                                   {"cuda-emu.kind", "emulation"},
                                   {"cuda-emu.l2_model_bytes", "52428800"}});

    Ceilings c;
    c.items = {
        {"l1", CeilingKind::bandwidth, 4e11, "B/s", "ERT a=a*b+c, 2 threads", 65536},
        {"l2", CeilingKind::bandwidth, 2e11, "B/s", "ERT a=a*b+c, 2 threads", 2097152},
        {"llc", CeilingKind::bandwidth, 1e11, "B/s", "ERT a=a*b+c, 2 threads", 33554432},
        {"dram", CeilingKind::bandwidth, 2.5e10, "B/s", "ERT a=a*b+c, 2 threads", 0},
        {"fp32_fma", CeilingKind::compute, 2e11, "FLOP/s", "FMA peak, AVX-512, 2 threads", 0},
    };
    store.save_ceilings(run, c);

    const auto save = [&](std::string family, std::string variant, std::string backend, std::string problem,
                          std::string config, CaseStatus status, std::string message,
                          std::vector<std::vector<double>> samples, std::vector<Counter> counters) {
        CaseRecord k;
        k.run_id = run;
        k.key = {std::move(family), std::move(variant), std::move(backend), std::move(problem), std::move(config)};
        k.status = status;
        k.message = std::move(message);
        k.measured_at = "2024-05-01T10:01:00.000Z";
        k.samples = std::move(samples);
        k.counters = std::move(counters);
        store.save_case(k);
    };
    // Memory bound: 1 GFLOP over 0.5 GB of DRAM traffic (model) in a median of 25 ms.
    save("attention", "naive", "cpu", R"({"b":1,"d":64,"s":1024})", "{}", CaseStatus::ok, "",
         {{0.025, 0.0275, 0.0225}, {0.03, 0.02}},
         {{"flops", 1e9, "FLOP", CounterSource::model},
          {"bytes.dram", 5e8, "B", CounterSource::model},
          {"bytes.l2", 1e9, "B", CounterSource::model}});
    // Tunable config; a perf counter takes precedence over the model for DRAM bytes.
    save("attention", "flash", "cpu", R"({"b":1,"d":64,"s":1024})", R"({"Bc":64,"Br":32})", CaseStatus::ok, "",
         {{0.008, 0.01, 0.012}},
         {{"flops", 1e9, "FLOP", CounterSource::model},
          {"bytes.dram", 2e7, "B", CounterSource::model},
          {"bytes.dram", 4e7, "B", CounterSource::perf}});
    // Emulation: its time must never read as a GPU time.
    save("attention", "flash", "cuda-emu", R"({"b":1,"d":64,"s":1024})", R"({"Bc":64,"Br":32})", CaseStatus::ok, "",
         {{2.5, 3.5}}, {{"flops", 1e9, "FLOP", CounterSource::model}, {"bytes.dram", 3e7, "B", CounterSource::emu}});
    save("conv", "direct", "cpu", R"({"C":3,"H":32,"K":8,"R":3,"W":32,"scale":0.5})", "{}", CaseStatus::ok, "",
         {{0.004}}, {});
    save("conv", "im2win", "cpu", R"({"C":3,"H":32,"K":8,"R":3,"W":32,"scale":0.5})", "{}", CaseStatus::wrong_result,
         "relative L2 error 3e-2 > 1e-4, \"out\" poisoned at [0, 7]", {}, {});
    save("conv", "implicit_gemm", "cuda-emu", R"({"C":3,"H":32,"K":8,"R":3,"W":32,"scale":0.5})", "{}",
         CaseStatus::skipped, "uses tensor-core MMA: GPU only", {}, {});
    return run;
}

struct ExportTest : ::testing::Test {
    TempDir dir;
    Store store = Store::open(dir.file("r.db"), Store::Mode::create);
    std::int64_t run = build_run(store);

    std::string exported(ExportFormat f) {
        std::ostringstream out;
        export_run(store, run, f, out, ExportOptions{"9.9.9-test"});
        return out.str();
    }

    // Compares with the checked-in file; on a difference, the output is kept beside the
    // temp directory for inspection.
    void expect_golden(ExportFormat f, const std::string& name) {
        const std::string actual = exported(f);
        const std::string golden = kGoldenDir + name;
        const std::string expected = std::filesystem::exists(golden) ? read_file(golden) : std::string();
        if (actual != expected) {
            const auto kept = std::filesystem::temp_directory_path() / ("memwall-actual-" + name);
            write_file(kept.string(), actual);
            ADD_FAILURE() << name << " differs from the golden file; actual output written to " << kept;
        }
    }
};

TEST_F(ExportTest, JsonMatchesGolden) { expect_golden(ExportFormat::json, "run.json"); }
TEST_F(ExportTest, CsvMatchesGolden) { expect_golden(ExportFormat::csv, "run.csv"); }
TEST_F(ExportTest, GbenchMatchesGolden) { expect_golden(ExportFormat::gbench, "run_gbench.json"); }

TEST_F(ExportTest, EmulationIsLabelledInEveryFormat) {
    const auto json = nlohmann::json::parse(exported(ExportFormat::json));
    for (const auto& c : json.at("cases"))
        EXPECT_EQ(c.at("timing"), c.at("backend") == "cuda-emu" ? "emulation" : "measured");

    std::istringstream csv(exported(ExportFormat::csv));
    std::string line;
    std::getline(csv, line);
    EXPECT_NE(line.find(",timing\r"), std::string::npos);
    while (std::getline(csv, line)) {
        const bool emu = line.find(",cuda-emu,") != std::string::npos;
        EXPECT_EQ(line.substr(line.rfind(',') + 1), emu ? "emulation\r" : "measured\r") << line;
    }

    const auto gb = nlohmann::json::parse(exported(ExportFormat::gbench));
    for (const auto& b : gb.at("benchmarks")) {
        const bool emu = b.at("name").get<std::string>().find("/cuda-emu/") != std::string::npos;
        if (emu)
            EXPECT_EQ(b.at("label"), "cuda-emu: emulation time, not a GPU time");
        else
            EXPECT_FALSE(b.contains("label"));
    }
}

// What Google Benchmark's tools/gbench/report.py reads: repetitions grouped by name with one
// time unit, aggregates named <run_name>_<aggregate>, failures flagged.
TEST_F(ExportTest, GbenchHasWhatCompareReads) {
    const auto gb = nlohmann::json::parse(exported(ExportFormat::gbench));
    const auto& bs = gb.at("benchmarks");
    int iterations = 0, aggregates = 0, errors = 0;
    for (const auto& b : bs) {
        for (const char* key : {"name", "run_name", "run_type", "repetitions", "threads", "iterations", "real_time",
                                "cpu_time", "time_unit"})
            EXPECT_TRUE(b.contains(key)) << key << " in " << b.dump();
        EXPECT_EQ(b.at("time_unit"), "ns");
        if (b.value("error_occurred", false)) {
            ++errors;
        } else if (b.at("run_type") == "aggregate") {
            ++aggregates;
            EXPECT_EQ(b.at("name"),
                      b.at("run_name").get<std::string>() + "_" + b.at("aggregate_name").get<std::string>());
        } else {
            ++iterations;
            EXPECT_EQ(b.at("name"), b.at("run_name"));
        }
    }
    EXPECT_EQ(iterations, 5 + 3 + 2 + 1);  // one per sample of the ok cases
    EXPECT_EQ(aggregates, 3 * 3);          // mean, median, stddev of cases with 2+ samples
    EXPECT_EQ(errors, 2);
    EXPECT_EQ(gb.at("context").at("memwall_run"), run);
}

TEST_F(ExportTest, BmfMatchesGolden) { expect_golden(ExportFormat::bmf, "run_bmf.json"); }

// Bencher's schema (https://bencher.dev/bmf.json): an object of benchmarks, each an object of
// measures, each with a numeric `value` (required) and optional numeric lower and upper values.
// Read back, each timed case's latency is its median with the interval of the median around it.
TEST_F(ExportTest, BmfCarriesEveryTimedCaseWithItsInterval) {
    const auto bmf = nlohmann::json::parse(exported(ExportFormat::bmf));
    ASSERT_TRUE(bmf.is_object());
    const std::vector<CaseRecord> cases = store.cases(run);
    EXPECT_EQ(bmf.size(), 4u);
    for (const auto& [name, measures] : bmf.items()) {
        ASSERT_TRUE(measures.is_object()) << name;
        const auto& latency = measures.at("latency");
        for (const char* key : {"value", "lower_value", "upper_value"})
            ASSERT_TRUE(latency.at(key).is_number()) << name;
        const double value = latency.at("value"), lo = latency.at("lower_value"), hi = latency.at("upper_value");
        EXPECT_LE(lo, value) << name;
        EXPECT_LE(value, hi) << name;
        const auto it = std::find_if(cases.begin(), cases.end(), [&](const CaseRecord& c) {
            return c.status == CaseStatus::ok && c.summary.n > 0 && std::abs(c.summary.median * 1e9 - value) < 1e-6 &&
                   name.rfind(c.key.family + "/" + c.key.variant + "/" + c.key.backend + "/", 0) == 0;
        });
        ASSERT_NE(it, cases.end()) << name << " matches no timed case's median";
        EXPECT_DOUBLE_EQ(lo, it->summary.min * 1e9) << name;  // too few samples for a 95% interval: the range
        EXPECT_DOUBLE_EQ(hi, it->summary.max * 1e9) << name;
    }
    EXPECT_FALSE(bmf.contains("conv/im2win/cpu/C=3,H=32,K=8,R=3,W=32,scale=0.5"));  // a wrong result is not timed
}

// With samples enough for a 95% interval of the median, the interval is narrower than their range.
TEST_F(ExportTest, BmfIntervalIsTheMediansNotTheRange) {
    CaseRecord k;
    k.run_id = run;
    k.key = {"stream", "loop", "cpu", R"({"n":1024,"op":"triad"})", "{}"};
    for (int i = 1; i <= 30; ++i) k.samples.push_back({i * 1e-6});
    store.save_case(k);
    const auto latency =
        nlohmann::json::parse(exported(ExportFormat::bmf)).at("stream/loop/cpu/n=1024,op=triad").at("latency");
    EXPECT_DOUBLE_EQ(latency.at("value").get<double>(), 15.5e3);
    EXPECT_GT(latency.at("lower_value").get<double>(), 1e3);
    EXPECT_LT(latency.at("upper_value").get<double>(), 30e3);
    EXPECT_LT(latency.at("lower_value").get<double>(), 15.5e3);
    EXPECT_GT(latency.at("upper_value").get<double>(), 15.5e3);
}

TEST_F(ExportTest, MissingRunIsAnInputError) {
    std::ostringstream out;
    EXPECT_THROW(export_run(store, run + 1, ExportFormat::json, out, {}), InputError);
}

TEST_F(ExportTest, MalformedStoredJsonIsAnInputError) {
    CaseRecord bad;
    bad.run_id = run;
    bad.key = {"attention", "naive", "cpu", "{not json", "{}"};
    bad.samples = {{1e-3}};
    store.save_case(bad);
    for (ExportFormat f : {ExportFormat::json, ExportFormat::gbench}) {
        std::ostringstream out;
        EXPECT_THROW(export_run(store, run, f, out, {}), InputError);
    }
}

TEST_F(ExportTest, TextThatIsNotUtf8IsReplacedNotFatal) {
    // `run --tag` stores the bytes it is given; JSON export once threw nlohmann's type_error (exit 3).
    store.set_tag(run, "branch", "caf\xe9");
    for (ExportFormat f : {ExportFormat::json, ExportFormat::gbench}) {
        const std::string out = exported(f);
        if (f == ExportFormat::json) {
            EXPECT_NE(out.find("caf\xef\xbf\xbd"), std::string::npos) << out;
        }
        EXPECT_TRUE(nlohmann::json::accept(out)) << out;
    }
}

TEST(ExportFormatNames, RoundTrip) {
    for (ExportFormat f : {ExportFormat::json, ExportFormat::csv, ExportFormat::gbench, ExportFormat::bmf})
        EXPECT_EQ(export_format_from(to_string(f)), f);
    EXPECT_EQ(export_format_from("xml"), std::nullopt);
    EXPECT_EQ(timing_of("cuda-emu"), "emulation");
    EXPECT_EQ(timing_of("cpu"), "measured");
    EXPECT_EQ(timing_of("cuda"), "measured");
}

}  // namespace
}  // namespace memwall

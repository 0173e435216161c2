#include "tuner/recorded_space.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"

namespace memwall {
namespace {

const std::string kData = std::string(MEMWALL_TEST_DATA) + "/tuning/";

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::size_t index_of(const RecordedSpace& rs, const Config& c) {
    auto i = rs.space.find(c);
    EXPECT_TRUE(i.has_value());
    return i.value_or(0);
}

// Expects parse to throw InputError with a one-line message containing `needle`.
template <class F>
void expect_input_error(F parse, const std::string& needle) {
    try {
        parse();
        ADD_FAILURE() << "no InputError";
    } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find(needle), std::string::npos) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
}

TEST(KernelTunerCache, ImportsTheOlderErrorEncoding) {
    const RecordedSpace rs = load_recorded_space(kData + "convolution_milo_A100_slice.json");
    EXPECT_EQ(rs.format, "kerneltuner");
    EXPECT_EQ(rs.device, "NVIDIA A100-PCIE-40GB");
    EXPECT_EQ(rs.kernel, "convolution_kernel");
    EXPECT_TRUE(rs.notes.empty());
    ASSERT_EQ(rs.space.parameters().size(), 10u);
    EXPECT_EQ(rs.space.parameters()[0].name, "block_size_x");
    EXPECT_EQ(rs.space.parameters()[0].values.size(), 16u);  // the header's full list
    EXPECT_EQ(rs.space.size(), 88u);
    EXPECT_EQ(rs.ok_count(), 84u);

    // block_size_x=80 (index 4), block_size_y=4 (2), tile 1 x 1, ...: time 2.18877 ms
    const Evaluation& e = rs.results[index_of(rs, {4, 2, 0, 0, 0, 0, 0, 0, 0, 0})];
    ASSERT_TRUE(e.ok());
    EXPECT_NEAR(e.seconds, 2.1887679547071457e-3, 1e-15);
    EXPECT_NEAR(e.cost_seconds, (871.1558538489044 + 0 + 71.7914360575378) * 1e-3, 1e-12);

    const Evaluation& runtime = rs.results[index_of(rs, {4, 2, 2, 3, 1, 0, 0, 0, 0, 0})];
    EXPECT_EQ(runtime.status, EvalStatus::runtime_failed);
    EXPECT_EQ(runtime.reason, "RuntimeFailedConfig");
    const Evaluation& compile = rs.results[index_of(rs, {10, 2, 2, 1, 0, 1, 1, 0, 0, 0})];
    EXPECT_EQ(compile.status, EvalStatus::compile_failed);
    EXPECT_EQ(compile.reason, "CompilationFailedConfig");
    EXPECT_NEAR(rs.optimum_seconds(), 0.7330560032278299e-3, 1e-15);
}

TEST(KernelTunerCache, ImportsTheNewerErrorEncoding) {
    const RecordedSpace rs = load_recorded_space(kData + "convolution_milo_A4000_slice_error_key.json");
    EXPECT_EQ(rs.space.size(), 88u);
    EXPECT_EQ(rs.ok_count(), 85u);
    const Evaluation& runtime = rs.results[index_of(rs, {10, 2, 2, 3, 1, 0, 0, 0, 0, 0})];
    EXPECT_EQ(runtime.status, EvalStatus::runtime_failed);
    EXPECT_EQ(runtime.reason, "RuntimeFailedConfig");
    EXPECT_EQ(rs.results[index_of(rs, {10, 2, 2, 1, 1, 1, 1, 0, 0, 0})].status, EvalStatus::compile_failed);
    EXPECT_NEAR(rs.optimum_seconds(), 1.514003999531269e-3, 1e-15);
}

TEST(KernelTunerCache, AnErrorKeyWinsOverANumericTime) {
    const std::string text = R"({"tune_params_keys": ["a"], "tune_params": {"a": [1, 2]}, "objective": "time",
        "cache": {"1": {"a": 1, "time": 0.5},
                  "2": {"a": 2, "time": 1e20, "__error__": "InvalidConfig"}}})";
    const RecordedSpace rs = parse_kernel_tuner_cache(text, "mem");
    EXPECT_EQ(rs.results[1].status, EvalStatus::invalid);
    EXPECT_EQ(rs.results[1].reason, "InvalidConfig");
}

TEST(KernelTunerCache, GzipReadsLikeThePlainFile) {
    const RecordedSpace plain = load_recorded_space(kData + "convolution_milo_A100_slice.json");
    const RecordedSpace gz = load_recorded_space(kData + "convolution_milo_A100_slice.json.gz");
    ASSERT_EQ(gz.space.size(), plain.space.size());
    for (std::size_t i = 0; i < plain.space.size(); ++i) {
        EXPECT_EQ(gz.space.config(i), plain.space.config(i));
        EXPECT_EQ(gz.results[i].status, plain.results[i].status);
        EXPECT_EQ(gz.results[i].seconds, plain.results[i].seconds);
    }
}

TEST(KernelTunerCache, RepairsAFileLeftOpenMidLine) {
    const RecordedSpace rs = load_recorded_space(kData + "convolution_milo_A100_unterminated.json");
    EXPECT_EQ(rs.space.size(), 25u);  // the half-written 26th entry is dropped
    ASSERT_EQ(rs.notes.size(), 1u);
    EXPECT_NE(rs.notes[0].find("partial last entry"), std::string::npos);
}

TEST(KernelTunerCache, RepairsAFileLeftOpenAfterAnEntry) {
    // What an interrupted run leaves when it stops between two entries: a trailing comma.
    std::string text = slurp(kData + "convolution_milo_A100_unterminated.json");
    text.erase(text.find_last_of('\n'));
    ASSERT_EQ(text.back(), ',');
    const RecordedSpace rs = parse_kernel_tuner_cache(text + "\n", "mem");
    EXPECT_EQ(rs.space.size(), 25u);
    ASSERT_EQ(rs.notes.size(), 1u);
    EXPECT_EQ(rs.notes[0].find("partial"), std::string::npos);
}

TEST(KernelTunerCache, MalformedFilesGiveOneLine) {
    const std::string slice = slurp(kData + "convolution_milo_A100_slice.json");
    std::string broken = slice;
    broken.insert(slice.find("\"cache\": {") + 10, "#");  // garbage before the first entry
    expect_input_error([&] { parse_kernel_tuner_cache(broken, "broken.json"); }, "broken.json: malformed JSON");
    expect_input_error([] { parse_kernel_tuner_cache(R"({"tune_params_keys": ["a"], "cache": {}})", "x.json"); },
                       "no \"tune_params\"");
    expect_input_error(
        [] {
            parse_kernel_tuner_cache(
                R"({"tune_params_keys": ["a"], "tune_params": {"a": [1]}, "cache": {"3": {"a": 3, "time": 1}}})", "x");
        },
        "a=3 is not in tune_params");
    expect_input_error(
        [] {
            parse_kernel_tuner_cache(
                R"({"tune_params_keys": ["a"], "tune_params": {"a": [1]}, "cache": {"1": {"a": 1, "time": -2}}})", "x");
        },
        "time must be a positive number");
    expect_input_error(
        [] {
            parse_kernel_tuner_cache(R"({"tune_params_keys": ["a"], "tune_params": {"a": [1]}, "objective": "GFLOP/s",
                                         "cache": {"1": {"a": 1, "time": 1}}})",
                                     "x");
        },
        "objective 'GFLOP/s' is not supported");
}

TEST(KttJson, ImportsResultsCountersAndFailures) {
    const RecordedSpace rs = load_recorded_space(kData + "pnpoly_RTX_2080Ti_slice.json");
    EXPECT_EQ(rs.format, "ktt");
    EXPECT_EQ(rs.device, "NVIDIA GeForce RTX 2080 Ti");
    EXPECT_EQ(rs.kernel, "Pnpoly");
    ASSERT_EQ(rs.space.parameters().size(), 5u);
    EXPECT_EQ(rs.space.parameters()[1].name, "BLOCK_SIZE_X");
    // values sorted ascending, whatever order they appeared in
    EXPECT_EQ(rs.space.parameters()[1].values, (std::vector<Value>{std::int64_t{128}, std::int64_t{928}}));
    EXPECT_EQ(rs.space.size(), 24u);
    EXPECT_EQ(rs.ok_count(), 12u);

    // The first result: BLOCK_SIZE_X=128, TILE_SIZE=18, BETWEEN_METHOD=0, USE_METHOD=0.
    const Evaluation& e = rs.results[index_of(rs, {0, 0, 0, 0, 0})];
    ASSERT_TRUE(e.ok());
    EXPECT_NEAR(e.seconds, 9623.648e-6, 1e-12);
    EXPECT_NEAR(e.cost_seconds, (9623.648 + 2358768.761) * 1e-6, 1e-9);
    EXPECT_EQ(e.counters.size(), 33u + 2u);  // CUPTI's 33 and memwall's bytes.dram, bytes.l2

    const Counter* dram_read = find_counter(e.counters, "dram__bytes_read.sum");
    ASSERT_NE(dram_read, nullptr);
    EXPECT_EQ(dram_read->value, 5008862.0 * 32);
    EXPECT_EQ(dram_read->unit, "B");
    EXPECT_EQ(dram_read->source, CounterSource::cupti);
    EXPECT_EQ(find_counter(e.counters, "dram__sectors_read.sum"), nullptr);
    const Counter* dram = find_counter(e.counters, counters::bytes_at("dram"));
    ASSERT_NE(dram, nullptr);
    EXPECT_EQ(dram->value, (5008862.0 + 2411326.0) * 32);
    const Counter* l2 = find_counter(e.counters, counters::bytes_at("l2"));
    ASSERT_NE(l2, nullptr);
    EXPECT_EQ(l2->value, (5132108.0 + 2500391.0) * 32);
    // A percentage that mentions sectors stays a percentage.
    const Counter* pct = find_counter(e.counters, "lts__t_sectors.avg.pct_of_peak_sustained_elapsed");
    ASSERT_NE(pct, nullptr);
    EXPECT_EQ(pct->unit, "%");
    EXPECT_NEAR(pct->value, 1.0466237369798432, 1e-15);
    const Counter* inst = find_counter(e.counters, "smsp__inst_executed.sum");
    ASSERT_NE(inst, nullptr);
    EXPECT_EQ(inst->unit, "inst");

    const Evaluation& failed = rs.results[index_of(rs, {0, 1, 0, 0, 0})];
    EXPECT_EQ(failed.status, EvalStatus::runtime_failed);
    EXPECT_EQ(failed.reason, "ComputationFailed");
    EXPECT_TRUE(failed.counters.empty());
}

TEST(KttJson, MalformedFilesGiveOneLine) {
    expect_input_error([] { parse_ktt_json(R"({"Metadata": {}, "Results": []})", "k.json"); },
                       "k.json: KTT Metadata has no TimeUnit");
    expect_input_error([] { parse_ktt_json(R"({"Metadata": {"TimeUnit": "Microseconds"}, "Results": [)", "k.json"); },
                       "malformed JSON");
    expect_input_error(
        [] {
            parse_ktt_json(R"({"Metadata": {"TimeUnit": "Microseconds"}, "Results": [
                {"Configuration": [{"Name": "A", "Value": 1}], "Status": "Ok", "TotalDuration": 0}]})",
                           "k.json");
        },
        "status Ok with TotalDuration 0");
    expect_input_error([] { parse_ktt_json(R"({"Metadata": {"TimeUnit": "Fortnights"}, "Results": [{}]})", "k"); },
                       "unknown Metadata.TimeUnit 'Fortnights'");
}

TEST(KttJson, AValueOfTheWrongTypeNamesItsKey) {
    expect_input_error(
        [] { parse_ktt_json(R"({"Metadata": {"TimeUnit": "Seconds", "Device": 5}, "Results": [{}]})", "k"); },
        "k: Metadata: \"Device\" must be a string, not 5");
    const auto result = [](const std::string& fields) {
        return R"({"Metadata": {"TimeUnit": "Seconds"}, "Results": [{"Configuration": [{"Name": "A", "Value": 1}], )"
               R"("Status": "Ok", "TotalDuration": 1)" +
               fields + "}]}";
    };
    expect_input_error([&] { parse_ktt_json(result(R"(, "TotalOverhead": "2")"), "k"); },
                       "k: result 0: \"TotalOverhead\" must be a number, not \"2\"");
    expect_input_error([&] { parse_ktt_json(result(R"(, "KernelName": [])"), "k"); },
                       "k: result 0: \"KernelName\" must be a string, not []");
    expect_input_error([&] { parse_ktt_json(result(R"(, "ComputationResults": [{"Duration": null}])"), "k"); },
                       "k: result 0: \"Duration\" must be a number, not null");
}

// Each value is finite, but 6e306 sectors are 1.9e308 bytes, past the largest double: refused
// with the file and the counter; it was imported and ended the session at its first store.
TEST(KttJson, ACounterBeyondADoubleOnceScaledIsRefused) {
    expect_input_error(
        [] {
            parse_ktt_json(
                R"({"Metadata": {"TimeUnit": "Seconds"}, "Results": [{"Configuration": [{"Name": "A", "Value": 1}], )"
                R"("Status": "Ok", "TotalDuration": 1, "ComputationResults": [{"Duration": 1, "ProfilingData": )"
                R"({"Counters": [{"Name": "dram__sectors_read.sum", "Value": 6e306}]}}]}]})",
                "k.json");
        },
        "k.json: result 0: counter dram__bytes_read.sum passes the largest number (1.8e308) once summed or scaled to "
        "bytes");
}

TEST(KernelTunerCache, ANumberBeyondADoubleIsMalformedJson) {
    expect_input_error(
        [] {
            parse_kernel_tuner_cache(
                R"({"tune_params_keys": ["a"], "tune_params": {"a": [1]}, "cache": {"1": {"a": 1, "time": 1e400}}})",
                "x.json");
        },
        "x.json: malformed JSON: number overflow parsing '1e400'");
}

// gzip data may expand 64 times its compressed size (at least to 64 MiB): 70 MiB of zeros, 70 KB
// compressed, is refused once 64 MiB are read. A gzip bomb (10 MB to 10 GiB) grew without bound.
TEST(LoadRecordedSpace, GzipDataThatExpandsWithoutMeasureIsRefused) {
    const auto path =
        std::filesystem::temp_directory_path() / ("memwall-bomb-" + std::to_string(::getpid()) + ".json.gz");
    {
        gzFile out = gzopen(path.c_str(), "wb1");
        ASSERT_NE(out, nullptr);
        const std::string zeros(1 << 20, '0');
        for (int i = 0; i < 70; ++i)
            ASSERT_EQ(gzwrite(out, zeros.data(), static_cast<unsigned>(zeros.size())), 1 << 20);
        ASSERT_EQ(gzclose(out), Z_OK);
    }
    ASSERT_LT(std::filesystem::file_size(path), std::uint64_t{1} << 20);
    expect_input_error([&] { read_maybe_gzipped(path.string()); }, "refused as a decompression bomb");
    std::filesystem::remove(path);
}

TEST(LoadRecordedSpace, AFifoIsRefusedNotWaitedOn) {
    const auto path = std::filesystem::temp_directory_path() / ("memwall-fifo-" + std::to_string(::getpid()) + ".json");
    ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
    expect_input_error([&] { load_recorded_space(path.string()); }, "is a FIFO (named pipe), not a regular file");
    std::filesystem::remove(path);
}

TEST(LoadRecordedSpace, RejectsOtherFilesWithOneLine) {
    expect_input_error([] { load_recorded_space(kData + "README.md"); },
                       "neither a Kernel Tuner cache nor a KTT JSON file");
    expect_input_error([] { load_recorded_space(kData + "no_such_file.json"); }, "no_such_file.json: cannot open");
}

}  // namespace
}  // namespace memwall

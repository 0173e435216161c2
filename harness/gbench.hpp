// Google Benchmark as the driver of a sweep's cases: its --benchmark_* flags, handed on
// untouched, and a reporter that prints nothing (memwall prints its own table from the store).
#pragma once

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

namespace memwall {

struct GbenchFlags {
    std::vector<std::string> args;  // as typed: --benchmark_repetitions=5, ...
    int repetitions = 1;            // --benchmark_repetitions: samples are kept per repetition
    bool own_report = false;        // --benchmark_format given: Google Benchmark prints its report
};

// Reads the flags memwall acts on; throws UsageError for malformed repetitions.
GbenchFlags gbench_flags(std::vector<std::string> args);

// Hands the flags to Google Benchmark; throws UsageError for a flag it does not know.
void init_google_benchmark(const GbenchFlags& flags);

class QuietReporter : public benchmark::BenchmarkReporter {
  public:
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>&) override {}
};

}  // namespace memwall

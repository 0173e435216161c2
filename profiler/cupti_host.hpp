// CUPTI's profiler host API (cupti_profiler_host.h), which needs no GPU and no driver: the chips
// it knows, a chip's base metrics and their properties, and the range profiler's configuration
// of a metric list (its config image and how many replay passes collecting it takes). What the
// cuda backend's collection builds its configuration with, and what `memwall metrics` checks a
// metric list with before any GPU is touched.
//
// libcupti is opened at the first call (dlopen, as cuBLAS is: memwall starts and runs its other
// commands where CUPTI is missing); Unavailable says so when it cannot be loaded, or when memwall
// was built without the CUDA toolkit. Names CUPTI does not know are std::invalid_argument. Every
// CUPTI call's result is checked, and a failure (std::runtime_error) names the call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace memwall::cupti {

// CUPTI cannot be loaded here (or memwall was built without the CUDA toolkit).
struct Unavailable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The chips CUPTI's profiler host API supports (GV100 … GH100, AD10x, GB10x/GB20x).
std::vector<std::string> supported_chips();

// What memwall collects by default on the cuda backend: DRAM, L2 and L1 bytes, FP32 FMA
// instructions, and the kernels' duration.
const std::vector<std::string>& default_metrics();

struct MetricProperties {
    std::string description;
    std::string hw_unit;   // the unit that counts it: dram, lts, l1tex, sm, ...
    std::string dim_unit;  // what its values are: byte, cycle, nsecond, ...
    std::string type;      // counter, ratio or throughput
};

// The range profiler's configuration of a metric list.
struct MetricConfig {
    std::vector<std::uint8_t> image;  // the config image the target side takes
    std::size_t passes = 0;           // replays of a range that collecting them takes
};

// The profiler host object of one chip.
class ChipMetrics {
  public:
    // Throws std::invalid_argument for a chip CUPTI does not know, naming the ones it does.
    explicit ChipMetrics(const std::string& chip);
    ~ChipMetrics();
    ChipMetrics(const ChipMetrics&) = delete;
    ChipMetrics& operator=(const ChipMetrics&) = delete;

    const std::string& chip() const { return chip_; }
    // Every base metric (counters, ratios, throughputs), with its type.
    std::vector<std::pair<std::string, std::string>> base_metrics() const;
    // A metric's properties; nullopt when it is not a metric of this chip (a misspelt name, a
    // base name with an unknown rollup).
    std::optional<MetricProperties> properties(const std::string& metric) const;
    // Throws std::invalid_argument, in one line naming each, when some of `metrics` are not
    // metrics of the chip.
    void require(const std::vector<std::string>& metrics) const;
    // The configuration collecting `metrics` takes (required first).
    MetricConfig configure(const std::vector<std::string>& metrics) const;

  private:
    struct Host;
    std::string chip_;
    std::unique_ptr<Host> host_;
};

}  // namespace memwall::cupti

#include "metrics/device_specs.hpp"

#include <cctype>

namespace memwall {

namespace {

constexpr double kTera = 1e12, kGiga = 1e9;

// A100's L2 read bandwidth is published per clock (5120 B/clk, A100 whitepaper, against
// V100's 2048); at the 1410 MHz boost clock that is 7.22 TB/s. NVIDIA publishes no L2
// bandwidth for H100, so its predictions are bounded by FP32 and HBM only.
constexpr double kA100L2 = 5120.0 * 1410e6;

const char* const kH100Source =
    "NVIDIA H100 Tensor Core GPU datasheet (FP32 and memory bandwidth); "
    "no published L2 bandwidth";
const char* const kA100Source =
    "NVIDIA A100 Tensor Core GPU datasheet (FP32 and memory bandwidth); "
    "L2: A100 architecture whitepaper, 5120 B/clk at 1410 MHz";

std::string normalised(std::string_view s) {
    std::string out;
    for (char c : s)
        if (c != ' ' && c != '-' && c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

const std::vector<DeviceSpec>& device_specs() {
    static const std::vector<DeviceSpec> specs{
        {"H100 SXM", {"H100", "H100 SXM5"}, 67 * kTera, 3350 * kGiga, std::nullopt, kH100Source},
        {"H100 PCIe", {}, 51 * kTera, 2000 * kGiga, std::nullopt, kH100Source},
        {"A100 SXM4 80GB", {"A100", "A100 80GB"}, 19.5 * kTera, 2039 * kGiga, kA100L2, kA100Source},
        {"A100 SXM4 40GB", {"A100 40GB"}, 19.5 * kTera, 1555 * kGiga, kA100L2, kA100Source},
    };
    return specs;
}

const DeviceSpec* find_device_spec(std::string_view name) {
    const std::string key = normalised(name);
    for (const DeviceSpec& d : device_specs()) {
        if (normalised(d.name) == key) return &d;
        for (const auto& a : d.aliases)
            if (normalised(a) == key) return &d;
    }
    return nullptr;
}

std::string device_spec_names() {
    std::string out;
    for (const DeviceSpec& d : device_specs()) out += (out.empty() ? "" : ", ") + d.name;
    return out;
}

RooflinePrediction predict_roofline(const DeviceSpec& d, double flops, double dram_bytes, double l2_bytes) {
    RooflinePrediction p{flops / d.fp32_flops, "fp32"};
    if (const double t = dram_bytes / d.dram_bandwidth; t > p.seconds) p = {t, "dram"};
    if (d.l2_bandwidth)
        if (const double t = l2_bytes / *d.l2_bandwidth; t > p.seconds) p = {t, "l2"};
    return p;
}

std::optional<RooflinePrediction> predict_roofline(const DeviceSpec& d, const std::vector<Counter>& counters) {
    const Counter* flops = find_counter(counters, counters::kFlops);
    const Counter* read = find_counter(counters, "dram__bytes_read.sum");
    const Counter* write = find_counter(counters, "dram__bytes_write.sum");
    const Counter* l2 = find_counter(counters, "lts__t_bytes.sum");
    if (!flops || !read || !write || !l2) return std::nullopt;
    return predict_roofline(d, flops->value, read->value + write->value, l2->value);
}

}  // namespace memwall

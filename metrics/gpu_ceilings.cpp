#include "metrics/gpu_ceilings.hpp"

#include <cstdio>

#include "metrics/device_specs.hpp"

namespace memwall {

namespace {

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

// Datasheet names lack the vendor ("NVIDIA A100-SXM4-80GB" is "A100 SXM4 80GB").
const DeviceSpec* spec_of(std::string name) {
    if (name.starts_with("NVIDIA ")) name.erase(0, 7);
    return find_device_spec(name);
}

}  // namespace

int fp32_lanes_per_sm(int cc) {
    // CUDA C++ Programming Guide, "Arithmetic Instructions": 32-bit floating-point add, multiply
    // and multiply-add results per clock per SM.
    switch (cc) {
        case 70:
        case 72:
        case 75:
        case 80: return 64;
        case 86:
        case 87:
        case 89:
        case 90:
        case 100:
        case 103:
        case 110:
        case 120:
        case 121: return 128;
        default: return 0;
    }
}

int bf16_tensor_flops_per_sm(int cc) {
    // The A100 and H100 whitepapers' dense BF16 peaks over SMs x boost clock: 312 TFLOP/s of
    // 108 SMs at 1410 MHz, 989.4 of 132 at 1830 MHz.
    switch (cc) {
        case 80: return 2048;
        case 90: return 4096;
        default: return 0;
    }
}

int tf32_tensor_flops_per_sm(int cc) {
    // Half the bf16 rate: the A100's 156 TFLOP/s and the H100 SXM's 494.7 dense TF32.
    return bf16_tensor_flops_per_sm(cc) / 2;
}

std::vector<Ceiling> theoretical_gpu_ceilings(const GpuFigures& d) {
    const std::string prefix(kCudaCeilingPrefix);
    const std::string of = " (theoretical peak of the device's properties, not measured)";
    std::vector<Ceiling> out;
    if (d.memory_bandwidth > 0)
        out.push_back({prefix + "dram", CeilingKind::bandwidth, d.memory_bandwidth, "B/s",
                       "memory bandwidth: 2 x memory clock x bus width" + of});
    if (const int lanes = fp32_lanes_per_sm(d.compute_capability); lanes > 0 && d.sms > 0 && d.sm_clock_hz > 0)
        out.push_back({prefix + "fp32_fma", CeilingKind::compute, 2.0 * lanes * d.sms * d.sm_clock_hz, "FLOP/s",
                       std::to_string(d.sms) + " SMs x " + std::to_string(lanes) + " FP32 lanes x 2 FLOP x " +
                           fixed(d.sm_clock_hz / 1e9, 3) + " GHz" + of});
    if (const int per_sm = bf16_tensor_flops_per_sm(d.compute_capability); per_sm > 0 && d.sms > 0 && d.sm_clock_hz > 0)
        out.push_back({prefix + "bf16_tensor", CeilingKind::compute,
                       static_cast<double>(per_sm) * d.sms * d.sm_clock_hz, "FLOP/s",
                       std::to_string(d.sms) + " SMs x " + std::to_string(per_sm) + " dense bf16 tensor FLOP x " +
                           fixed(d.sm_clock_hz / 1e9, 3) + " GHz" + of});
    if (const int per_sm = tf32_tensor_flops_per_sm(d.compute_capability); per_sm > 0 && d.sms > 0 && d.sm_clock_hz > 0)
        out.push_back({prefix + "tf32_tensor", CeilingKind::compute,
                       static_cast<double>(per_sm) * d.sms * d.sm_clock_hz, "FLOP/s",
                       std::to_string(d.sms) + " SMs x " + std::to_string(per_sm) + " dense tf32 tensor FLOP x " +
                           fixed(d.sm_clock_hz / 1e9, 3) + " GHz" + of});
    if (const DeviceSpec* s = spec_of(d.name); s && s->l2_bandwidth)
        out.push_back({prefix + "l2", CeilingKind::bandwidth, *s->l2_bandwidth, "B/s",
                       "L2 bandwidth of the " + s->name + " datasheet: " + s->source + " (not measured)"});
    return out;
}

}  // namespace memwall

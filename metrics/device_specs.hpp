// Datasheet figures of named GPUs, and the roofline time they predict for a kernel's counters:
// what cuda-emu tuning optimises, since emulation wall time says nothing about a GPU. A
// prediction is a lower bound (max over resources of work / rate), always shown as predicted.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metrics/counter.hpp"

namespace memwall {

struct DeviceSpec {
    std::string name;                    // "H100 SXM": how predictions are labelled
    std::vector<std::string> aliases;    // other accepted names
    double fp32_flops = 0;               // FLOP/s, FP32 on CUDA cores (no tensor cores)
    double dram_bandwidth = 0;           // B/s
    std::optional<double> l2_bandwidth;  // B/s; absent when no published figure exists
    std::string source;                  // where the figures come from
};

// The table, in a fixed order; the first is the default.
const std::vector<DeviceSpec>& device_specs();
// By name or alias, ignoring case, spaces, '-' and '_'; nullptr when unknown.
const DeviceSpec* find_device_spec(std::string_view name);
// "H100 SXM, H100 PCIe, ...": for messages.
std::string device_spec_names();

struct RooflinePrediction {
    double seconds = 0;
    std::string bound;  // the resource that bounds it: "fp32", "dram" or "l2"
};

// max(FLOPs / peak, DRAM bytes / bandwidth, L2 bytes / L2 bandwidth when the spec has one).
RooflinePrediction predict_roofline(const DeviceSpec& d, double flops, double dram_bytes, double l2_bytes);

// The same from a case's counters: FLOPs from `flops`, DRAM bytes from dram__bytes_read.sum +
// dram__bytes_write.sum (cuda-emu's L2 model), L2 bytes from lts__t_bytes.sum. nullopt when one
// of them is missing.
std::optional<RooflinePrediction> predict_roofline(const DeviceSpec& d, const std::vector<Counter>& counters);

}  // namespace memwall

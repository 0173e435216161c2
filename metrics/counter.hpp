// A named measured or modelled quantity of a case, always with its source.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace memwall {

// cupti: measured on an NVIDIA GPU; perf: CPU PMU through perf_event;
// emu: exact count from the cuda-emu access stream; model: analytic; timer: a wall-clock time
// the variant measured of part of its run (spgemm's symbolic phase).
enum class CounterSource { cupti, perf, emu, model, timer };

std::string_view to_string(CounterSource s);
std::optional<CounterSource> counter_source_from(std::string_view s);

struct Counter {
    std::string name;
    double value = 0;
    std::string unit;
    CounterSource source = CounterSource::model;
};

// Names of the counters every variant's model provides. Bytes are split by the memory level
// they cross, so a case can be placed on a hierarchical roofline.
namespace counters {
inline constexpr std::string_view kFlops = "flops";  // FLOP
// FLOP, of `flops`, done on bf16 tensor cores: the roofline bounds them by that unit's peak
// (the bf16_tensor ceiling) and the rest by the FP32 FMA peak.
inline constexpr std::string_view kFlopsBf16Tensor = "flops.bf16_tensor";
// FLOP of `flops` on f16 tensor cores, bounded by the same roof as bf16 (sm_80 and sm_90 run
// dense f16 and bf16 at one rate), and on tf32 tensor cores, bounded by the tf32_tensor roof.
inline constexpr std::string_view kFlopsF16Tensor = "flops.f16_tensor";
inline constexpr std::string_view kFlopsTf32Tensor = "flops.tf32_tensor";
inline constexpr std::string_view kBytesMin = "bytes.min";         // B, compulsory traffic
inline constexpr std::string_view kWorkspace = "workspace.bytes";  // B, allocated by the variant
// Traffic at a level: "bytes.<level>" with level one of the ceiling names (dram, llc, l2, l1).
std::string bytes_at(std::string_view level);
}  // namespace counters

const Counter* find_counter(const std::vector<Counter>& cs, std::string_view name);

}  // namespace memwall

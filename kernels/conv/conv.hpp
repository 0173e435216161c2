// The conv family's shared definitions: the problem, the im2win paper's layers, the workload
// (inputs and float64 reference), the check, and the CPU variants' kernels and models.
//
// out[n][k][p][q] = sum over c, r, s of in[n][c][p*stride + r - pad][q*stride + s - pad] *
// filter[k][c][r][s], fp32, NCHW input and output, KCRS filter (PyTorch's layouts), with
// P = (H + 2 pad - R) / stride + 1 and Q likewise from W and S; taps outside the input read 0.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "core/space.hpp"
#include "kernels/kit/placed_buffer.hpp"
#include "metrics/counter.hpp"
#include "metrics/memory_hierarchy.hpp"

namespace memwall {

// Placement slots of the CPU kernels' buffers (kit/placed_buffer.hpp).
namespace conv_slot {
inline constexpr std::size_t kInput = 0, kFilter = 1, kOutput = 2, kWorkspace = 3, kPacked = 4;
}

// What the products multiply (the dtype axis): fp32 FMA; bf16 tensor cores, bf16 in memory;
// tf32 tensor cores, fp32 in memory. Accumulation is fp32 in every case.
enum class ConvDtype { fp32, bf16, tf32 };

struct ConvProblem {
    std::int64_t n = 1, c = 1, h = 1, w = 1, k = 1, r = 1, s = 1, stride = 1, pad = 0;
    ConvDtype dtype = ConvDtype::fp32;

    // Reads the family's problem axes (batch, C, H, W, K, R, S, stride, pad; layer's presets are
    // applied by the space). Throws UsageError, naming the layer, when the shape is malformed: a
    // size below 1, a filter larger than the padded input, padding of a filter's size or more.
    static ConvProblem from(const Params& p);
    // The point's dtype; fp32 where it has none (points stored before the axis).
    static ConvDtype dtype_of(const Params& p);

    std::int64_t p() const { return (h + 2 * pad - r) / stride + 1; }
    std::int64_t q() const { return (w + 2 * pad - s) / stride + 1; }
    std::int64_t window() const { return c * r * s; }  // terms of one output: C*R*S
    std::size_t input_size() const { return static_cast<std::size_t>(n * c * h * w); }
    std::size_t filter_size() const { return static_cast<std::size_t>(k * c * r * s); }
    std::size_t output_size() const { return static_cast<std::size_t>(n * k * p() * q()); }
    double flops() const;                                                          // 2 N K C R S P Q
    double element_bytes() const { return dtype == ConvDtype::bf16 ? 2.0 : 4.0; }  // in memory
    double min_bytes() const;  // input, filter and output once, element_bytes each
};

// The im2win paper's twelve layers (C x H x W, K, R = S, stride; no padding): presets of the
// layer axis, layer=conv1 .. conv12.
struct ConvLayer {
    const char* name;
    std::int64_t c, h, w, k, r, stride;
};
const std::vector<ConvLayer>& conv_layers();
std::vector<Preset> conv_layer_presets();

// Inputs uniform in +-[0.25, 1] (never zero, random signs) from a seeded generator; the float64
// reference is computed once, at the first check, and shared by every variant of the workload.
class ConvWorkload : public Workload {
  public:
    ConvWorkload(const ConvProblem& p, std::uint64_t seed);
    const ConvProblem& problem() const { return problem_; }
    const float* input() const { return input_.data(); }
    const float* filter() const { return filter_.data(); }
    // fp32 sums of C*R*S products in any order: a rounding error of about 2^-24 sqrt(CRS) of
    // the output's size for random signs; 16x that bounds every blocking and library order,
    // while a missing or doubled tap (1/sqrt(CRS)) is caught. The tensor-core dtypes round the
    // fp32 inputs: each product errs by about 2^-9 (bf16, whose output is rounded too) or 2^-11
    // (tf32) relative, independently, so the relative L2 error is about that, whatever CRS
    // (emulated: 0.0027 and 0.00026): bounds 1e-2 for bf16 and 1e-3 for tf32.
    double tolerance() const;
    // Every element of `out` (N*K*P*Q floats) finite, and the relative L2 error below tolerance.
    Check check(const float* out) const;

  private:
    const std::vector<double>& reference() const;

    ConvProblem problem_;
    kit::PlacedBuffer input_{kit::PlacedAllocator<float>(conv_slot::kInput)};
    kit::PlacedBuffer filter_{kit::PlacedAllocator<float>(conv_slot::kFilter)};
    mutable std::once_flag reference_once_;
    mutable std::vector<double> reference_;
};

// The output columns [first, last) whose tap s reads inside the input: 0 <= q*stride + s - pad < W.
struct ColumnRange {
    std::int64_t first, last;
};
inline ColumnRange conv_valid_columns(const ConvProblem& p, std::int64_t s) {
    const std::int64_t lo = p.pad - s, hi = p.w - 1 + p.pad - s;  // q*stride in [lo, hi]
    const std::int64_t first = lo <= 0 ? 0 : (lo + p.stride - 1) / p.stride;
    const std::int64_t last = hi < 0 ? 0 : std::min(p.q(), hi / p.stride + 1);
    return {first, std::max(first, last)};
}

// The float64 reference of one problem (multi-threaded), out of N*K*P*Q doubles.
void conv_reference(const ConvProblem& p, const float* input, const float* filter, double* out);

// Refuses, before anything is allocated, a case whose workspace would not fit in this
// machine's available memory: UsageError with the bytes it would need.
void refuse_oversized_workspace(const std::string& variant, double workspace_bytes);

}  // namespace memwall

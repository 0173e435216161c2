// The lora family's shared definitions: the problem, LoRAFusion's shapes, the workload (inputs,
// the dropout mask, the float64 reference) and the check.
//
// Y = X·W + α·(dropout(X)·A_a)·B_a, where token t (a row of X and Y) belongs to adapter a =
// adapter_of(t): X is M×K, W K×N (the frozen weight), A_a K×r and B_a r×N per adapter, Y M×N,
// row-major, in the dtype (fp32, or bf16 with fp32 arithmetic). dropout(X) = X ⊙ mask / (1 − p),
// the mask an input drawn from the seed (one bit per element of X), so every variant and the
// reference drop the same elements. Tokens are grouped by adapter in equal contiguous runs, as a
// batch of several adapters' requests is laid out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "core/space.hpp"
#include "kernels/kit/placed_buffer.hpp"

namespace memwall {

// Placement slots of the CPU kernels' buffers (kit/placed_buffer.hpp): X, W and Y, and the
// workspaces the unfused passes stream beside them, never alias below 4 KiB.
namespace lora_slot {
inline constexpr std::size_t kX = 0, kW = 1, kY = 2, kWorkspace = 3, kMask = 4, kSecondWorkspace = 5;
}

enum class LoraDtype { fp32, bf16 };

// Bytes placed by slot: Y and intermediates in either dtype.
using ByteBuffer = std::vector<std::byte, kit::PlacedAllocator<std::byte>>;
// `elements` further than `p` in an array of the dtype.
inline const void* element_offset(const void* p, std::int64_t elements, std::size_t element_bytes) {
    return static_cast<const std::byte*>(p) + elements * static_cast<std::int64_t>(element_bytes);
}
inline void* element_offset(void* p, std::int64_t elements, std::size_t element_bytes) {
    return static_cast<std::byte*>(p) + elements * static_cast<std::int64_t>(element_bytes);
}

struct LoraProblem {
    std::int64_t m = 1, k = 1, n = 1, r = 1, adapters = 1;
    double dropout = 0, alpha = 1;
    LoraDtype dtype = LoraDtype::fp32;

    // Reads the family's problem axes (M, K, N, r, adapters, dropout, alpha, dtype; shape's
    // presets are applied by the space). Throws UsageError when the problem is malformed: a size
    // below 1, more adapters than tokens, a dropout outside [0, 1).
    static LoraProblem from(const Params& p);

    std::size_t element_bytes() const { return dtype == LoraDtype::bf16 ? 2 : 4; }
    std::int64_t mask_words() const { return (k + 31) / 32; }  // 32-bit words of one row's mask
    // The first token of adapter a (a = adapters gives M).
    std::int64_t segment_begin(std::int64_t a) const { return a * m / adapters; }
    // dropout's 1 / (1 - p) times α: the factor of the down-projection's result.
    double lora_scale() const { return alpha / (1.0 - dropout); }
    double flops() const;      // 2MKN + 2MKr + 2MrN
    double min_bytes() const;  // X, W, every adapter's A and B, the mask and Y once
};

LoraDtype lora_dtype(const std::string& name);
const char* lora_dtype_name(LoraDtype d);

// LoRAFusion's shapes (K = N ∈ {4096, 5120, 8192}, r = 16, α = 16, p = 0.1): presets of the
// shape axis, which set K, N, r, alpha and dropout; M is swept on its own (2048 … 8192).
std::vector<Preset> lora_shape_presets();
std::vector<std::string> lora_shape_names();

// Elements of X and W uniform in ±[0.25, 1] (never zero, random signs); A's and B's scaled so that
// the adapters' term is about as large as the base term X·W, so a dropped scale, a wrong mask or
// a wrong adapter moves the output far past the tolerance. For bf16 every input is rounded to
// bf16 and held both ways: as the floats it is exactly (the reference's and the fp32 helpers')
// and as bf16 bits (what the bf16 kernels read).
class LoraWorkload : public Workload {
  public:
    using Bf16Buffer = std::vector<std::uint16_t, kit::PlacedAllocator<std::uint16_t>>;

    LoraWorkload(const LoraProblem& p, std::uint64_t seed);
    const LoraProblem& problem() const { return problem_; }

    const float* x() const { return x_.data(); }
    const float* w() const { return w_.data(); }
    const float* a(std::int64_t adapter) const { return a_.data() + adapter * problem_.k * problem_.r; }
    const float* b(std::int64_t adapter) const { return b_.data() + adapter * problem_.r * problem_.n; }
    // bf16 problems only: the same values as bf16 bits.
    const std::uint16_t* x16() const { return x16_.data(); }
    const std::uint16_t* w16() const { return w16_.data(); }
    const std::uint16_t* a16(std::int64_t adapter) const { return a16_.data() + adapter * problem_.k * problem_.r; }
    const std::uint16_t* b16(std::int64_t adapter) const { return b16_.data() + adapter * problem_.r * problem_.n; }
    // The inputs in the dtype's storage: floats for fp32, bf16 bits for bf16.
    const void* x_data() const;
    const void* w_data() const;
    const void* a_data(std::int64_t adapter) const;
    const void* b_data(std::int64_t adapter) const;

    // Bit k % 32 of word t * mask_words() + k / 32 is 1 where element (t, k) of X is kept.
    const std::uint32_t* mask() const { return mask_.data(); }
    // The adapter of each token (M entries).
    const std::int32_t* adapter_of() const { return adapter_of_.data(); }

    // Bound of the relative L2 error. fp32: sums of K products in any order (about 2^-24 sqrt(K)
    // of the output's size), 16x for every blocking a library picks. bf16: the output rounded to
    // bf16 (unit roundoff 2^-8) and, in the unfused passes, X', S and α·S·B rounded as PyTorch's
    // bf16 tensors are: 2^-7 bounds four such roundings with room.
    double tolerance() const;
    // Every element of `y` (M×N in the dtype) finite, and the relative L2 error against the float64
    // reference below tolerance(): of the whole LoRA output, or with `base_only` of X·W alone
    // (the base variant's).
    Check check(const void* y, bool base_only = false) const;

  private:
    struct Reference {
        std::vector<double> base, full;
    };
    const Reference& reference() const;

    LoraProblem problem_;
    kit::PlacedBuffer x_{kit::PlacedAllocator<float>(lora_slot::kX)};
    kit::PlacedBuffer w_{kit::PlacedAllocator<float>(lora_slot::kW)};
    std::vector<float> a_, b_;
    Bf16Buffer x16_{kit::PlacedAllocator<std::uint16_t>(lora_slot::kX)};
    Bf16Buffer w16_{kit::PlacedAllocator<std::uint16_t>(lora_slot::kW)};
    std::vector<std::uint16_t> a16_, b16_;
    std::vector<std::uint32_t, kit::PlacedAllocator<std::uint32_t>> mask_{
        kit::PlacedAllocator<std::uint32_t>(lora_slot::kMask)};
    std::vector<std::int32_t> adapter_of_;
    mutable std::once_flag reference_once_;
    mutable Reference reference_;
};

}  // namespace memwall

// The lora family's CPU kernels: each computes Y (M×N in the dtype) for the workload. GEMMs are
// OpenBLAS's sgemm for fp32 and oneDNN's matmul for bf16; the passes around them are memwall's.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/isa.hpp"
#include "kernels/kit/phase_times.hpp"
#include "kernels/lora/lora.hpp"

namespace memwall::lora_cpu {

class Kernel {
  public:
    virtual ~Kernel() = default;
    // Laps `phases` at the end of each pass (the GEMMs, dropout, the projections, the add).
    virtual void run(void* y, kit::PhaseTimes& phases) = 0;
    // Bytes the kernel holds besides the workload's inputs and Y (intermediates, packed weights).
    virtual double workspace_bytes() const = 0;
    // How it runs: the GEMM library and, for oneDNN, the implementation and ISA it picked.
    virtual std::string detail() const = 0;
};

// The blocks of memwall's own LoRA passes (fused, multi_adapter).
struct Tiles {
    std::int64_t tile_m = 64;  // tokens per task of the fused pass
    // Columns of Y per block of the up-projection (B's block stays in L2): whole rows of LoRAFusion's
    // shapes, whose 4 rows at a time the prefetcher follows (K = N = 4096, bf16: 1.9 ms against 2.1
    // at 512).
    std::int64_t tile_n = 4096;
};

// Tokens [begin, end).
struct TokenRange {
    std::int64_t begin = 0, end = 0;
};

std::unique_ptr<Kernel> make_base(const LoraWorkload& w);
std::unique_ptr<Kernel> make_unfused(const LoraWorkload& w);
std::unique_ptr<Kernel> make_fused(const LoraWorkload& w, const Tiles& t);
// `group` adapters' tokens per batched call (the last call takes the rest).
std::unique_ptr<Kernel> make_multi_adapter(const LoraWorkload& w, const Tiles& t, std::int64_t group);
// The fused passes and an accumulating base GEMM over each range of tokens in turn (fused: one
// range per adapter; multi_adapter: one range of every token). `name` says which in detail().
std::unique_ptr<Kernel> make_fused_calls(const LoraWorkload& w, const Tiles& t, std::vector<TokenRange> calls,
                                         std::string name);

// C (rows×n) = A (rows×k) · B (k×n), row-major and contiguous, in the dtype: OpenBLAS's sgemm, or
// oneDNN's matmul with f32 accumulation and B reordered once into the layout oneDNN prefers, as
// frozen weights are; without oneDNN's bf16 matmul, sgemm on the bf16 operands widened to fp32
// (B once, A per run) with C rounded back to bf16.
class Gemm {
  public:
    Gemm(LoraDtype dtype, std::int64_t rows, std::int64_t k, std::int64_t n, const void* b);
    ~Gemm();
    Gemm(Gemm&&) noexcept;
    void run(const void* a, void* c) const;
    // "OpenBLAS sgemm", or oneDNN's implementation (its ISA in the name, e.g. brg:avx512_core_amx).
    std::string describe() const;
    // B in oneDNN's layout (0 for OpenBLAS, which reads B in place), or the widened copies.
    double weights_bytes() const;
    // Whether oneDNN has a bf16 matmul on this CPU at the active ISA: Debian's oneDNN (2.6) has
    // none without AVX-512, where a bf16 Gemm widens to fp32.
    static bool bf16_available();

  private:
    struct State;
    std::unique_ptr<State> state_;
};

// The unfused passes, as PyTorch's LoRA runs them, over tokens [t0, t1), in the dtype:
// out = X ⊙ mask / (1 - p) (M×K), and y += α t (count elements).
void dropout(const LoraWorkload& w, std::int64_t t0, std::int64_t t1, void* out);
void scaled_add(LoraDtype dtype, void* y, const void* t, float alpha, std::int64_t count);

// The fused passes' layouts of every adapter's A and B (built once, as weights are): A transposed,
// rp rows (r padded with zero rows to whole register blocks) of kp columns (K padded with zeros to
// a multiple of 32); A again in vectors of 4 ranks by 4 rows (4 pairs of rows in bf16) for the
// vector down-projection (cpu_passes.cpp); and for bf16 problems B in pairs of rows, (B[j][n],
// B[j+1][n]) adjacent, the layout a bf16 dot-product instruction takes.
struct AdapterWeights {
    std::int64_t rp = 0, kp = 0;
    std::vector<float> a;                  // adapters × rp × kp
    std::vector<float> a32_quads;          // adapters × kp/4 × rp/4 × 16 (fp32 problems)
    std::vector<std::uint16_t> a16_quads;  // adapters × kp/8 × rp/4 × 16 × 2 (bf16 problems)
    std::vector<std::uint16_t> b16_pairs;  // adapters × rp/2 × N × 2
};
AdapterWeights adapter_weights(const LoraWorkload& w);
// rp for rank r: a multiple of the down-projection's register block on every ISA (8 ranks with
// AVX-512's 32 registers, 4 with AVX2's 16).
inline constexpr std::int64_t kRankGranule = 8;
std::int64_t padded_rank(std::int64_t r);
// The fused passes over tokens [t0, t1), each token looking up its adapter, after the base GEMM
// has written Y: S (M×rp floats) = α / (1 - p) · (mask ⊙ X)·A, X read once with the mask applied
// as it is read, then Y += S·B in the dtype, Y read and written once. Per task of tiles.tile_m
// tokens, so a task's S is used while in cache.
// Built once per ISA (kit/kernel_isa.hpp); the plain call runs the active ISA's.
template <Isa isa>
void lora_pass(const LoraWorkload& w, const AdapterWeights& a, std::int64_t t0, std::int64_t t1, const Tiles& tiles,
               float* s, void* y);
void lora_pass(const LoraWorkload& w, const AdapterWeights& a, std::int64_t t0, std::int64_t t1, const Tiles& tiles,
               float* s, void* y);

// Elements of fp32 or bf16 arrays as floats. bf16 stores round to nearest even, as
// __float2bfloat16_rn does (the values are finite).
inline float load_elem(const float* p, std::int64_t i) { return p[i]; }
inline float load_elem(const std::uint16_t* p, std::int64_t i) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(p[i]) << 16);
}
inline std::uint32_t bf16_bits(std::uint32_t u) { return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16; }
inline void store_elem(float* p, std::int64_t i, float v) { p[i] = v; }
inline void store_elem(std::uint16_t* p, std::int64_t i, float v) {
    p[i] = static_cast<std::uint16_t>(bf16_bits(std::bit_cast<std::uint32_t>(v)));
}

}  // namespace memwall::lora_cpu

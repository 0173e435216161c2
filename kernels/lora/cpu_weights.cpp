// The lora CPU passes apart from the fused kernel (cpu_passes.cpp, built once per ISA): the unfused
// dropout and scaled add (one pass each over X or Y, as PyTorch's LoRA runs them), the adapters'
// weights in the fused pass's layouts, and the call to the active ISA's fused pass.
#include <algorithm>

#include "kernels/lora/cpu_kernels.hpp"

namespace memwall::lora_cpu {

namespace {

template <class T>
void dropout_as(const LoraWorkload& w, const T* x, std::int64_t t0, std::int64_t t1, T* out) {
    const LoraProblem& p = w.problem();
    const std::int64_t words = p.mask_words();
    const auto scale = static_cast<float>(1.0 / (1.0 - p.dropout));
#pragma omp parallel for schedule(static)
    for (std::int64_t t = t0; t < t1; ++t)
        for (std::int64_t k0 = 0; k0 < p.k; k0 += 32) {
            const std::uint32_t m = w.mask()[t * words + k0 / 32];
            const std::int64_t kend = std::min<std::int64_t>(32, p.k - k0);
            for (std::int64_t kk = 0; kk < kend; ++kk)
                store_elem(out, t * p.k + k0 + kk,
                           load_elem(x, t * p.k + k0 + kk) * static_cast<float>((m >> kk) & 1u) * scale);
        }
}

template <class T>
void scaled_add_as(T* y, const T* t, float alpha, std::int64_t count) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < count; ++i) store_elem(y, i, load_elem(y, i) + alpha * load_elem(t, i));
}

}  // namespace

void dropout(const LoraWorkload& w, std::int64_t t0, std::int64_t t1, void* out) {
    if (w.problem().dtype == LoraDtype::bf16)
        dropout_as(w, w.x16(), t0, t1, static_cast<std::uint16_t*>(out));
    else
        dropout_as(w, w.x(), t0, t1, static_cast<float*>(out));
}

void scaled_add(LoraDtype dtype, void* y, const void* t, float alpha, std::int64_t count) {
    if (dtype == LoraDtype::bf16)
        scaled_add_as(static_cast<std::uint16_t*>(y), static_cast<const std::uint16_t*>(t), alpha, count);
    else
        scaled_add_as(static_cast<float*>(y), static_cast<const float*>(t), alpha, count);
}

std::int64_t padded_rank(std::int64_t r) { return (r + kRankGranule - 1) / kRankGranule * kRankGranule; }

AdapterWeights adapter_weights(const LoraWorkload& w) {
    const LoraProblem& p = w.problem();
    AdapterWeights d;
    d.rp = padded_rank(p.r);
    d.kp = (p.k + 31) / 32 * 32;
    d.a.assign(static_cast<std::size_t>(p.adapters * d.rp * d.kp), 0.0f);
    for (std::int64_t a = 0; a < p.adapters; ++a)
        for (std::int64_t k = 0; k < p.k; ++k)
            for (std::int64_t j = 0; j < p.r; ++j)
                d.a[static_cast<std::size_t>((a * d.rp + j) * d.kp + k)] = w.a(a)[k * p.r + j];
    if (p.dtype == LoraDtype::fp32) {
        // Per 4 elements of K, per 4 ranks: lane l holds A[k][j] of rank j = 4v + l/4, k = 4g + l%4.
        d.a32_quads.assign(static_cast<std::size_t>(p.adapters * d.kp * d.rp), 0.0f);
        for (std::int64_t a = 0; a < p.adapters; ++a)
            for (std::int64_t k = 0; k < p.k; ++k)
                for (std::int64_t j = 0; j < p.r; ++j) {
                    const std::int64_t g = k / 4, lane = j % 4 * 4 + k % 4;
                    d.a32_quads[static_cast<std::size_t>(a * d.kp * d.rp + (g * (d.rp / 4) + j / 4) * 16 + lane)] =
                        w.a(a)[k * p.r + j];
                }
    } else {  // the same values, exact in bf16
        // Per 8 elements of K, per 4 ranks: lane l holds the pair (A[k][j], A[k+1][j]) of rank
        // j = 4v + l/4 and k = 8g + 2(l%4).
        d.a16_quads.assign(static_cast<std::size_t>(p.adapters * d.kp * d.rp), 0);
        for (std::int64_t a = 0; a < p.adapters; ++a)
            for (std::int64_t k = 0; k < p.k; ++k)
                for (std::int64_t j = 0; j < p.r; ++j) {
                    const std::int64_t g = k / 8, lane = j % 4 * 4 + k % 8 / 2;
                    d.a16_quads[static_cast<std::size_t>(a * d.kp * d.rp + ((g * (d.rp / 4) + j / 4) * 16 + lane) * 2 +
                                                         k % 2)] = w.a16(a)[k * p.r + j];
                }
        d.b16_pairs.assign(static_cast<std::size_t>(p.adapters * d.rp * p.n), 0);
        for (std::int64_t a = 0; a < p.adapters; ++a)
            for (std::int64_t j = 0; j < p.r; ++j)
                for (std::int64_t n = 0; n < p.n; ++n)
                    d.b16_pairs[static_cast<std::size_t>(((a * d.rp + j / 2 * 2) * p.n + n * 2) + j % 2)] =
                        w.b16(a)[j * p.n + n];
    }
    return d;
}

void lora_pass(const LoraWorkload& w, const AdapterWeights& aw, std::int64_t t0, std::int64_t t1, const Tiles& tiles,
               float* s, void* y) {
    if (active_isa() == Isa::avx512)
        lora_pass<Isa::avx512>(w, aw, t0, t1, tiles, s, y);
    else
        lora_pass<Isa::avx2>(w, aw, t0, t1, tiles, s, y);
}

}  // namespace memwall::lora_cpu

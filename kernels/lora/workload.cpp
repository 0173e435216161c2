// The lora workload: seeded inputs and mask, the float64 reference and the check.
#include <algorithm>
#include <bit>
#include <cmath>
#include <random>

#include "cuda_emu/bfloat16.hpp"
#include "kernels/kit/openblas.hpp"
#include "kernels/kit/output_check.hpp"
#include "kernels/lora/lora.hpp"

namespace memwall {

namespace {

float bf16_value(std::uint16_t bits) { return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16); }

}  // namespace

LoraWorkload::LoraWorkload(const LoraProblem& p, std::uint64_t seed) : problem_(p) {
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<float> magnitude(0.25f, 1.0f);
    std::bernoulli_distribution negative(0.5);
    const bool bf16 = p.dtype == LoraDtype::bf16;
    // `scale` sets the size; bf16 rounds each value, keeping its bits.
    auto fill = [&](auto& values, auto& bits, std::size_t size, float scale) {
        values.resize(size);
        if (bf16) bits.resize(size);
        for (std::size_t i = 0; i < size; ++i) {
            const float v = (negative(gen) ? -magnitude(gen) : magnitude(gen)) * scale;
            if (!bf16) {
                values[i] = v;
                continue;
            }
            const __nv_bfloat16 h(v);
            bits[i] = h.__x;
            values[i] = static_cast<float>(h);
        }
    };
    const auto M = static_cast<std::size_t>(p.m), K = static_cast<std::size_t>(p.k), N = static_cast<std::size_t>(p.n),
               R = static_cast<std::size_t>(p.r), A = static_cast<std::size_t>(p.adapters);
    fill(x_, x16_, M * K, 1.0f);
    fill(w_, w16_, K * N, 1.0f);
    // Base terms have RMS 0.4375 sqrt(K) (E[u^2] = 0.4375 for |u| in [0.25, 1]); with A's scaled
    // by 1/sqrt(K), the adapter's term has RMS α sqrt(r) 0.4375 / sqrt(1 - p) 0.661 b: B's scale
    // makes the two equal (for |α| >= 1).
    fill(a_, a16_, A * K * R, static_cast<float>(1.0 / std::sqrt(static_cast<double>(K))));
    const double b_scale = std::sqrt(static_cast<double>(K) * (1.0 - p.dropout) / static_cast<double>(R)) /
                           (0.661 * std::max(1.0, std::abs(p.alpha)));
    fill(b_, b16_, A * R * N, static_cast<float>(b_scale));

    const auto words = static_cast<std::size_t>(p.mask_words());
    mask_.assign(M * words, 0u);
    // Kept with probability 1 - p: a 32-bit draw below (1 - p) 2^32.
    const auto keep_below = static_cast<std::uint64_t>(std::ldexp(1.0 - p.dropout, 32));
    for (std::size_t t = 0; t < M; ++t)
        for (std::size_t k = 0; k < K; ++k)
            if ((gen() >> 32) < keep_below) mask_[t * words + k / 32] |= 1u << (k % 32);

    adapter_of_.resize(M);
    for (std::int64_t a = 0; a < p.adapters; ++a)
        std::fill(adapter_of_.begin() + p.segment_begin(a), adapter_of_.begin() + p.segment_begin(a + 1),
                  static_cast<std::int32_t>(a));
}

const void* LoraWorkload::x_data() const {
    return problem_.dtype == LoraDtype::bf16 ? static_cast<const void*>(x16()) : x();
}
const void* LoraWorkload::w_data() const {
    return problem_.dtype == LoraDtype::bf16 ? static_cast<const void*>(w16()) : w();
}
const void* LoraWorkload::a_data(std::int64_t adapter) const {
    return problem_.dtype == LoraDtype::bf16 ? static_cast<const void*>(a16(adapter)) : a(adapter);
}
const void* LoraWorkload::b_data(std::int64_t adapter) const {
    return problem_.dtype == LoraDtype::bf16 ? static_cast<const void*>(b16(adapter)) : b(adapter);
}

double LoraWorkload::tolerance() const {
    if (problem_.dtype == LoraDtype::bf16) return 0x1p-7;
    return 16.0 * std::sqrt(static_cast<double>(problem_.k + problem_.r)) * 0x1p-24;
}

// In float64 with OpenBLAS's dgemm (the inputs are exact in double): X·W, then per adapter
// (mask ⊙ X)·A_a scaled by α / (1 - p), times B_a, added.
const LoraWorkload::Reference& LoraWorkload::reference() const {
    std::call_once(reference_once_, [this] {
        const LoraProblem& p = problem_;
        const auto dgemm = kit::openblas::dgemm();
        const auto M = static_cast<std::size_t>(p.m), K = static_cast<std::size_t>(p.k),
                   N = static_cast<std::size_t>(p.n), R = static_cast<std::size_t>(p.r);
        std::vector<double> x(x_.begin(), x_.end()), w(w_.begin(), w_.end());
        reference_.base.assign(M * N, 0.0);
        auto i = [](std::int64_t v) { return static_cast<blasint>(v); };
        dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, i(p.m), i(p.n), i(p.k), 1.0, x.data(), i(p.k), w.data(),
              i(p.n), 0.0, reference_.base.data(), i(p.n));
        w = {};
        const auto words = static_cast<std::size_t>(p.mask_words());
        for (std::size_t t = 0; t < M; ++t)
            for (std::size_t k = 0; k < K; ++k)
                if (!(mask_[t * words + k / 32] >> (k % 32) & 1u)) x[t * K + k] = 0.0;
        reference_.full = reference_.base;
        std::vector<double> s(M * R);
        for (std::int64_t a = 0; a < p.adapters; ++a) {
            const std::int64_t t0 = p.segment_begin(a), rows = p.segment_begin(a + 1) - t0;
            const std::vector<double> ad(a_.begin() + a * p.k * p.r, a_.begin() + (a + 1) * p.k * p.r);
            const std::vector<double> bd(b_.begin() + a * p.r * p.n, b_.begin() + (a + 1) * p.r * p.n);
            dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, i(rows), i(p.r), i(p.k), p.lora_scale(),
                  x.data() + t0 * p.k, i(p.k), ad.data(), i(p.r), 0.0, s.data() + t0 * p.r, i(p.r));
            dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, i(rows), i(p.n), i(p.r), 1.0, s.data() + t0 * p.r, i(p.r),
                  bd.data(), i(p.n), 1.0, reference_.full.data() + t0 * p.n, i(p.n));
        }
    });
    return reference_;
}

Check LoraWorkload::check(const void* y, bool base_only) const {
    const std::size_t size = static_cast<std::size_t>(problem_.m * problem_.n);
    const bool bf16 = problem_.dtype == LoraDtype::bf16;
    auto value = [&](std::size_t i) -> double {
        return bf16 ? bf16_value(static_cast<const std::uint16_t*>(y)[i]) : static_cast<const float*>(y)[i];
    };
    if (const std::size_t i = kit::first_not_finite(size, value); i < size)
        return kit::not_finite("Y[" + std::to_string(i / problem_.n) + "][" + std::to_string(i % problem_.n) + "]",
                               value(i), tolerance());
    const std::vector<double>& ref = base_only ? reference().base : reference().full;
    kit::RelativeL2 l2;
    for (std::size_t i = 0; i < size; ++i) l2.add(value(i), ref[i]);
    return l2.result(tolerance());
}

}  // namespace memwall

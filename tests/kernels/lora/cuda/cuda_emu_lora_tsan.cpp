// The CUDA lora methods under ThreadSanitizer: a missing or misplaced __syncthreads around the
// GEMM's shared tiles or its row-adapter table is a data race between the emulated threads of a
// block, which ThreadSanitizer reports with the line. ctest expects "all outputs correct" and no
// report. Built without memwall's libraries: their cuda-emu is the counting one, not
// ThreadSanitizer's; the reference is computed here.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "kernels/lora/cuda/device_case.hpp"

int main() {
    using namespace memwall::lora_cuda;
    // Three adapters over tiles of 8 rows (tiles straddle them), K a partial mask word, r odd.
    Shape s;
    s.m = 21;
    s.k = 37;
    s.n = 19;
    s.r = 5;
    s.adapters = 3;
    s.keep_scale = 1.0f / 0.75f;
    s.alpha = 2;
    const auto z = [](int v) { return static_cast<std::size_t>(v); };
    std::vector<float> x(z(s.m * s.k)), w(z(s.k * s.n)), a(z(s.adapters * s.k * s.r)), b(z(s.adapters * s.r * s.n));
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 13) * 0.25f - 1.5f;
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 7) * 0.5f - 1.25f;
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i % 5) * 0.125f - 0.25f;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 11) * 0.1f - 0.5f;
    std::vector<std::uint32_t> mask(z(s.m * s.mask_words()));
    for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = 0x9e3779b9u * static_cast<std::uint32_t>(i + 1);
    std::vector<std::int32_t> adapter_of(z(s.m));
    for (int ad = 0; ad < s.adapters; ++ad)
        for (int t = s.segment_begin(ad); t < s.segment_begin(ad + 1); ++t) adapter_of[z(t)] = ad;

    std::vector<double> want(z(s.m * s.n));
    for (int t = 0; t < s.m; ++t) {
        const int ad = adapter_of[z(t)];
        std::vector<double> sr(z(s.r), 0.0);
        for (int k = 0; k < s.k; ++k) {
            const bool kept = mask[z(t * s.mask_words() + k / 32)] >> (k % 32) & 1u;
            for (int j = 0; j < s.r; ++j)
                if (kept) sr[z(j)] += double{x[z(t * s.k + k)]} * double{a[z((ad * s.k + k) * s.r + j)]};
        }
        for (int n = 0; n < s.n; ++n) {
            double y = 0;
            for (int k = 0; k < s.k; ++k) y += double{x[z(t * s.k + k)]} * double{w[z(k * s.n + n)]};
            for (int j = 0; j < s.r; ++j)
                y += double{s.alpha} * double{s.keep_scale} * sr[z(j)] * double{b[z((ad * s.r + j) * s.n + n)]};
            want[z(t * s.n + n)] = y;
        }
    }

    Tuning t;
    t.bm = 8;
    t.bn = 16;
    t.bk = 4;
    t.tm = 2;
    t.tn = 2;
    bool correct = true;
    for (Method m : {Method::unfused, Method::fused, Method::multi_adapter}) {
        auto device = cuda_emu::make_device_case(
            s, m, t, {x.data(), w.data(), a.data(), b.data(), mask.data(), adapter_of.data()});
        device->poison();
        device->run();
        std::vector<float> y(device->output_size());
        device->download(y.data());
        for (std::size_t i = 0; i < y.size(); ++i)
            if (!(std::abs(y[i] - want[i]) <= 1e-4 * (1 + std::abs(want[i])))) {
                std::printf("method %d: y[%zu] = %g, expected %g\n", static_cast<int>(m), i, static_cast<double>(y[i]),
                            want[i]);
                correct = false;
                break;
            }
    }
    if (correct) std::printf("all outputs correct\n");
    return correct ? 0 : 1;
}

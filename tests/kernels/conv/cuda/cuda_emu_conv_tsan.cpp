// The shared-memory kernels (im2win, implicit_gemm, and the tensor-core ones, whose cp.async
// stages land at wait_group) and direct under ThreadSanitizer: a missing or misplaced
// __syncthreads around a tile or stage is a data race between the emulated threads of a block,
// which ThreadSanitizer reports with the line. ctest expects "all outputs correct" and no
// report. Built without memwall's libraries: their cuda-emu is the counting one, not ThreadSanitizer's.
#include <cmath>
#include <cstdio>
#include <vector>

#include "kernels/conv/cuda/device_case.hpp"

int main() {
    using namespace memwall::conv_cuda;
    // Two images, stride 2, padding, K and C no multiple of the tiles, several channel stages.
    const Shape s{.n = 2, .c = 5, .h = 9, .w = 11, .k = 7, .r = 3, .s = 3, .stride = 2, .pad = 1, .p = 5, .q = 6};
    std::vector<float> in(static_cast<std::size_t>(s.n * s.c * s.h * s.w)),
        filter(static_cast<std::size_t>(s.k * s.c * s.r * s.s));
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 13) * 0.25f - 1.5f;
    for (std::size_t i = 0; i < filter.size(); ++i) filter[i] = static_cast<float>(i % 7) * 0.5f - 1.25f;
    std::vector<double> want(static_cast<std::size_t>(s.n * s.k * s.p * s.q), 0.0);
    for (int n = 0; n < s.n; ++n)
        for (int k = 0; k < s.k; ++k)
            for (int p = 0; p < s.p; ++p)
                for (int q = 0; q < s.q; ++q)
                    for (int c = 0; c < s.c; ++c)
                        for (int r = 0; r < s.r; ++r)
                            for (int t = 0; t < s.s; ++t) {
                                const int y = p * s.stride + r - s.pad, x = q * s.stride + t - s.pad;
                                if (y < 0 || y >= s.h || x < 0 || x >= s.w) continue;
                                want[static_cast<std::size_t>(((n * s.k + k) * s.p + p) * s.q + q)] +=
                                    double{in[static_cast<std::size_t>(((n * s.c + c) * s.h + y) * s.w + x)]} *
                                    double{filter[static_cast<std::size_t>(((k * s.c + c) * s.r + r) * s.s + t)]};
                            }

    Tuning direct{Algorithm::direct}, im2win{Algorithm::im2win}, gemm{Algorithm::implicit_gemm};
    direct.threads = 32;
    im2win.tile_k = 4;
    im2win.tile_p = 2;
    im2win.tile_q = 4;
    im2win.tile_c = 2;
    im2win.k_per_thread = 1;
    gemm.bm = 8;
    gemm.bn = 16;
    gemm.bk = 4;
    gemm.tm = 2;
    gemm.tn = 2;
    Tuning gemm_tc{Algorithm::implicit_gemm_tc}, im2win_tc{Algorithm::im2win_tc};  // tile 64/64/3
    // The inputs are multiples of 1/4 and 1/2 below 2: exact in bf16 and tf32; the bf16 output
    // is rounded to 8 bits.
    Shape bf16 = s, tf32 = s;
    bf16.dtype = Dtype::bf16;
    tf32.dtype = Dtype::tf32;
    struct Run {
        Shape shape;
        Tuning tuning;
        double tolerance;
    };
    bool correct = true;
    for (const auto& [shape, t, tolerance] :
         {Run{s, direct, 1e-4}, Run{s, im2win, 1e-4}, Run{s, gemm, 1e-4}, Run{bf16, gemm_tc, 4e-3},
          Run{bf16, im2win_tc, 4e-3}, Run{tf32, gemm_tc, 1e-4}, Run{tf32, im2win_tc, 1e-4}}) {
        auto device = cuda_emu::make_device_case(shape, t, {in.data(), filter.data()});
        device->poison();
        device->run();
        std::vector<float> out(device->output_size());
        device->download(out.data());
        for (std::size_t i = 0; i < out.size(); ++i)
            if (!(std::abs(out[i] - want[i]) <= tolerance * (1 + std::abs(want[i])))) {
                std::printf("algorithm %d: out[%zu] = %g, expected %g\n", static_cast<int>(t.algorithm), i,
                            static_cast<double>(out[i]), want[i]);
                correct = false;
                break;
            }
    }
    if (correct) std::printf("all outputs correct\n");
    return correct ? 0 : 1;
}

// The emulatable CUDA conv kernels' tunings as the tests write them: direct, im2win and
// implicit_gemm from their tile sizes.
#pragma once

#include "kernels/conv/cuda/device_case.hpp"

namespace memwall::conv_test {

inline conv_cuda::Tuning direct(int threads, int kpt) {
    conv_cuda::Tuning t{conv_cuda::Algorithm::direct};
    t.threads = threads;
    t.k_per_thread = kpt;
    return t;
}

inline conv_cuda::Tuning im2win(int tile_k, int tile_p, int tile_q, int tile_c, int kpt) {
    conv_cuda::Tuning t{conv_cuda::Algorithm::im2win};
    t.tile_k = tile_k;
    t.tile_p = tile_p;
    t.tile_q = tile_q;
    t.tile_c = tile_c;
    t.k_per_thread = kpt;
    return t;
}

inline conv_cuda::Tuning gemm(int bm, int bn, int bk, int tm, int tn) {
    conv_cuda::Tuning t{conv_cuda::Algorithm::implicit_gemm};
    t.bm = bm;
    t.bn = bn;
    t.bk = bk;
    t.tm = tm;
    t.tn = tn;
    return t;
}

}  // namespace memwall::conv_test

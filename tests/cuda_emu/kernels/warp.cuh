// Warp intrinsics: every shuffle flavour, votes under divergence, reductions.
#pragma once

#include "cuda_emu/cuda.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kShuffleResults = 8;

// out[8i .. 8i+7]: thread i's results of the shuffle flavours, with and without width.
__global__ void shuffles_kernel(const int* in, int* out) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int lane = static_cast<int>(threadIdx.x % 32);
    const int v = in[i];
    int* o = out + kShuffleResults * i;
    o[0] = __shfl_sync(kFullMask, v, 3);
    o[1] = __shfl_sync(kFullMask, v, (lane + 1) % 32);
    o[2] = __shfl_up_sync(kFullMask, v, 1);
    o[3] = __shfl_down_sync(kFullMask, v, 1);
    o[4] = __shfl_xor_sync(kFullMask, v, 1);
    o[5] = __shfl_sync(kFullMask, v, 2, 8);
    o[6] = __shfl_up_sync(kFullMask, v, 2, 8);
    o[7] = __shfl_down_sync(kFullMask, v, 3, 16);
}

// out[w] = sum of warp w's values of x, by a butterfly of __shfl_xor_sync on doubles.
__global__ void warp_sums_kernel(const double* x, double* out) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    double v = x[i];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(kFullMask, v, offset);
    if (threadIdx.x % 32 == 0) out[i / 32] = v;
}

constexpr int kVoteResults = 6;

// out[6i .. 6i+5]: votes of thread i. Odd and even values take different branches, each
// voting with the mask of its own lanes, as divergent code must.
__global__ void votes_kernel(const int* in, unsigned* out) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    const int v = in[i];
    unsigned* o = out + kVoteResults * i;
    const unsigned odd = __ballot_sync(kFullMask, v & 1);
    o[0] = odd;
    o[1] = static_cast<unsigned>(__any_sync(kFullMask, v > 100));
    o[2] = static_cast<unsigned>(__all_sync(kFullMask, v >= 0));
    if (v & 1) {
        o[3] = __ballot_sync(odd, v > 50);
        o[4] = static_cast<unsigned>(__all_sync(odd, v > 10));
    } else {
        o[3] = __ballot_sync(~odd, v > 50);
        o[4] = static_cast<unsigned>(__any_sync(~odd, v > 90));
    }
    __syncwarp();
    o[5] = __activemask();
}

// Lanes at or above `active` return at once; the others vote with the full mask, which CUDA
// allows: exited lanes named in a mask are ignored. out[2i] = ballot, out[2i+1] = active mask.
__global__ void votes_after_exit_kernel(const int* in, unsigned* out, unsigned active) {
    if (threadIdx.x % 32 >= active) return;
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[2 * i] = __ballot_sync(kFullMask, in[i] > 0);
    out[2 * i + 1] = __activemask();
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS

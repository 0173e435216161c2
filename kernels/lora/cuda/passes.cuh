// unfused's element-wise passes, as PyTorch runs them beside its GEMMs: dropout writing
// X' = X ⊙ mask / (1 - p), and the scaled add Y += α·T of the adapters' term.
#pragma once

#include "kernels/lora/cuda/common.cuh"

namespace memwall::lora_cuda::MEMWALL_CUDA_NS {

// A warp per mask word: warp w takes token w / mask_words and its 32 elements of word
// w % mask_words (the warp loads the word once). X and X' are M×K.
template <class T>
__global__ void dropout_kernel(int m, int k, float keep_scale, const T* x, const unsigned* mask, T* xd) {
    const int lane = thread_index() % kWarpSize, words = (k + 31) / 32;
    const long long w = (static_cast<long long>(blockIdx.x) * block_threads() + thread_index()) / kWarpSize;
    if (w >= static_cast<long long>(m) * words) return;
    const long long t = w / words;
    const int word = static_cast<int>(w - t * words), c = word * kWarpSize + lane;
    const unsigned bits = mask_word(mask + t * words, word, lane);
    if (c < k) xd[t * k + c] = from_float<T>(to_float(x[t * k + c]) * kept(bits, lane) * keep_scale);
}

// y[i] += alpha * t[i] for i < n, grid-stride.
template <class T>
__global__ void scaled_add_kernel(long long n, float alpha, const T* t, T* y) {
    const long long stride = static_cast<long long>(gridDim.x) * block_threads();
    for (long long i = static_cast<long long>(blockIdx.x) * block_threads() + thread_index(); i < n; i += stride)
        y[i] = from_float<T>(fmaf(alpha, to_float(t[i]), to_float(y[i])));
}

}  // namespace memwall::lora_cuda::MEMWALL_CUDA_NS

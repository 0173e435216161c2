// flash: FlashAttention-2 style, one block per tile of query rows, K/V tiles staged in shared
// memory, online softmax. T is the element type of Q, K, V and O in global memory; the tiles
// are converted to fp32 as they are staged, so the shared-memory layout (flash_shared_bytes)
// is the same for every T.
#pragma once

#include "kernels/attention/cuda/common.cuh"

namespace memwall::attention_cuda::MEMWALL_CUDA_NS {

// One block per tile of br query rows of one head (blockIdx.x tile, blockIdx.y head). The
// block stages K and V tiles of bc keys in shared memory; each warp owns br / warps query
// rows and keeps their running max and sum (online softmax, FlashAttention-2 order: the
// output is rescaled per tile and divided by the sum once at the end). The output
// accumulator lives in shared memory rather than registers, so that Br and head_dim can be
// run-time values. Layout of the shared memory: flash_shared_bytes.
template <class T>
__global__ void __launch_bounds__(1024)
    flash_kernel(Shape s, int br, int bc, const T* q, const T* k, const T* v, T* o) {
    MEMWALL_DYNAMIC_SHARED(float, shared);
    const int d = s.head_dim, ks = d + 1;  // K tile rows padded against bank conflicts
    float* qt = shared;
    float* kt = qt + br * d;
    float* vt = kt + bc * ks;
    float* pt = vt + bc * d;
    float* acc = pt + br * bc;
    float* row_max = acc + br * d;
    float* row_sum = row_max + br;

    const int tid = thread_index(), threads = block_threads();
    const int lane = tid % kWarpSize, warp = tid / kWarpSize;
    const int rows_per_warp = br / (threads / kWarpSize);
    const int i0 = static_cast<int>(blockIdx.x) * br;
    const int rows = min(br, s.seq_q - i0);
    const std::size_t h = blockIdx.y, du = static_cast<std::size_t>(d);
    const T* qh = q + (h * static_cast<std::size_t>(s.seq_q) + static_cast<std::size_t>(i0)) * du;
    const T* kh = k + h * static_cast<std::size_t>(s.seq_k) * du;
    const T* vh = v + h * static_cast<std::size_t>(s.seq_k) * du;
    T* oh = o + (h * static_cast<std::size_t>(s.seq_q) + static_cast<std::size_t>(i0)) * du;

    for (int x = tid; x < rows * d; x += threads) {
        qt[x] = to_float(qh[x]);
        acc[x] = 0.0f;
    }
    for (int r = tid; r < br; r += threads) {
        row_max[r] = -INFINITY;
        row_sum[r] = 0.0f;
    }
    // The tile's last row sees the most keys; tiles past them are not loaded.
    const int kend = visible_keys(s, i0 + rows - 1);
    for (int j0 = 0; j0 < kend; j0 += bc) {
        const int cols = min(bc, kend - j0);
        __syncthreads();  // the previous K/V tiles (and the initialisation) are done with
        const T* kj = kh + static_cast<std::size_t>(j0) * du;
        const T* vj = vh + static_cast<std::size_t>(j0) * du;
        for (int x = tid; x < cols * d; x += threads) {
            kt[(x / d) * ks + x % d] = to_float(kj[x]);
            vt[x] = to_float(vj[x]);
        }
        __syncthreads();
        for (int rr = 0; rr < rows_per_warp; ++rr) {
            const int r = warp * rows_per_warp + rr;
            if (r >= rows) break;                           // warp-uniform
            const int seen = visible_keys(s, i0 + r) - j0;  // keys of this tile row r sees
            const float* qr = qt + r * d;
            float* pr = pt + r * bc;
            float tile_max = -INFINITY;
            for (int j = lane; j < cols; j += kWarpSize) {
                float x = -INFINITY;
                if (j < seen) {
                    float dot = 0.0f;
                    for (int c = 0; c < d; ++c) dot = fmaf(qr[c], kt[j * ks + c], dot);
                    x = dot * s.scale;
                }
                pr[j] = x;
                tile_max = fmaxf(tile_max, x);
            }
            const float old_max = row_max[r];
            const float new_max = fmaxf(old_max, warp_max(tile_max));
            // A row that has seen no key yet keeps max -inf and probabilities 0.
            float tile_sum = 0.0f;
            for (int j = lane; j < cols; j += kWarpSize) {
                const float e = new_max == -INFINITY ? 0.0f : expf(pr[j] - new_max);
                pr[j] = e;
                tile_sum += e;
            }
            tile_sum = warp_sum(tile_sum);
            const float alpha = old_max == -INFINITY ? 0.0f : expf(old_max - new_max);
            __syncwarp();  // every lane reads the whole probability row
            float* ar = acc + r * d;
            for (int c = lane; c < d; c += kWarpSize) {
                float a = ar[c] * alpha;
                for (int j = 0; j < cols; ++j) a = fmaf(pr[j], vt[j * d + c], a);
                ar[c] = a;
            }
            if (lane == 0) {
                row_max[r] = new_max;
                row_sum[r] = row_sum[r] * alpha + tile_sum;
            }
        }
    }
    __syncthreads();  // the initialisation, when no tile was visible; the row sums of lane 0
    for (int rr = 0; rr < rows_per_warp; ++rr) {
        const int r = warp * rows_per_warp + rr;
        if (r >= rows) break;
        const float l = row_sum[r];
        const float inv = l > 0.0f ? 1.0f / l : 0.0f;  // a row without visible keys is zeros
        for (int c = lane; c < d; c += kWarpSize) oh[r * d + c] = from_float<T>(acc[r * d + c] * inv);
    }
}

}  // namespace memwall::attention_cuda::MEMWALL_CUDA_NS

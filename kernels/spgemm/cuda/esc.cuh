// esc on a GPU: expand every product (column, value) into a buffer at its row's offset (the
// exclusive scan of the rows' products), sort each row's segment by column with a block (in
// shared memory when it holds kEscSharedElements or fewer, in place in global memory
// otherwise), compress equal columns into a second buffer at the same offset, then, once C's row
// pointers are scanned from the compressed counts, copy each row to C. Rows come out sorted.
#pragma once

#include "kernels/spgemm/cuda/common.cuh"

namespace memwall::spgemm_cuda::MEMWALL_CUDA_NS {

// A warp per row: lane 0 reads the row's bounds and each A entry once and broadcasts them; the
// lanes take B's row, writing the products at offsets[i] in A's entry order.
__global__ void esc_expand_kernel(DeviceCsr a, DeviceCsr b, int rows, const int* offsets, int* keys, double* vals) {
    const int lane = thread_index() % kWarpSize;
    const int warps = block_threads() / kWarpSize;
    for (int i = static_cast<int>(blockIdx.x) * warps + thread_index() / kWarpSize; i < rows;
         i += static_cast<int>(gridDim.x) * warps) {
        int e0 = 0, e1 = 0, out = 0;
        if (lane == 0) {
            e0 = a.row_ptr[i];
            e1 = a.row_ptr[i + 1];
            out = offsets[i];
        }
        e0 = __shfl_sync(kFullMask, e0, 0);
        e1 = __shfl_sync(kFullMask, e1, 0);
        out = __shfl_sync(kFullMask, out, 0);
        for (int e = e0; e < e1; ++e) {
            int f0 = 0, f1 = 0;
            double av = 0;
            if (lane == 0) {
                const int k = a.col[e];
                av = a.val[e];
                f0 = b.row_ptr[k];
                f1 = b.row_ptr[k + 1];
            }
            f0 = __shfl_sync(kFullMask, f0, 0);
            f1 = __shfl_sync(kFullMask, f1, 0);
            av = __shfl_sync(kFullMask, av, 0);
            for (int f = f0 + lane; f < f1; f += kWarpSize) {
                keys[out + f - f0] = b.col[f];
                vals[out + f - f0] = av * b.val[f];
            }
            out += f1 - f0;
        }
    }
}

// A block per row: its segment sorted, then compressed into out_keys/out_vals at the same
// offset (each thread takes a contiguous chunk, finds where its runs of equal columns start,
// places them by a block scan, and sums each run in order); counts[i] = C's entries of row i.
__global__ void esc_sort_compress_kernel(int rows, const int* offsets, int* keys, double* vals, int* out_keys,
                                         double* out_vals, int* counts) {
    MEMWALL_DYNAMIC_SHARED(double, shared_vals);
    int* shared_keys = reinterpret_cast<int*>(shared_vals + kEscSharedElements);
    __shared__ int scratch[kWarpSize];
    __shared__ int bounds[2];
    for (int i = static_cast<int>(blockIdx.x); i < rows; i += static_cast<int>(gridDim.x)) {
        if (thread_index() == 0) {
            bounds[0] = offsets[i];
            bounds[1] = offsets[i + 1];
        }
        __syncthreads();
        const int p0 = bounds[0], m = bounds[1] - bounds[0];
        int* k = keys + p0;
        double* v = vals + p0;
        if (m <= kEscSharedElements) {
            for (int x = thread_index(); x < m; x += block_threads()) {
                shared_keys[x] = k[x];
                shared_vals[x] = v[x];
            }
            k = shared_keys;
            v = shared_vals;
            __syncthreads();
        }
        block_sort(k, v, m);
        __syncthreads();
        const int chunk = (m + block_threads() - 1) / block_threads();
        const int lo = min(m, thread_index() * chunk), hi = min(m, lo + chunk);
        int heads = 0;
        for (int x = lo; x < hi; ++x) heads += x == 0 || k[x] != k[x - 1];
        int total = 0;
        int at = p0 + block_inclusive_scan(heads, scratch, total) - heads;
        for (int x = lo; x < hi; ++x) {
            if (x > 0 && k[x] == k[x - 1]) continue;
            double sum = v[x];
            for (int y = x + 1; y < m && k[y] == k[x]; ++y) sum += v[y];
            out_keys[at] = k[x];
            out_vals[at] = sum;
            ++at;
        }
        if (thread_index() == 0) counts[i] = total;
        __syncthreads();  // shared memory and bounds are the next row's
    }
}

// A warp per row: row i's compressed entries to C.
__global__ void esc_copy_kernel(int rows, const int* offsets, const int* in_keys, const double* in_vals,
                                const int* c_row_ptr, int* c_col, double* c_val) {
    const int lane = thread_index() % kWarpSize;
    const int warps = block_threads() / kWarpSize;
    for (int i = static_cast<int>(blockIdx.x) * warps + thread_index() / kWarpSize; i < rows;
         i += static_cast<int>(gridDim.x) * warps) {
        int from = 0, c0 = 0, c1 = 0;
        if (lane == 0) {
            from = offsets[i];
            c0 = c_row_ptr[i];
            c1 = c_row_ptr[i + 1];
        }
        from = __shfl_sync(kFullMask, from, 0);
        c0 = __shfl_sync(kFullMask, c0, 0);
        c1 = __shfl_sync(kFullMask, c1, 0);
        for (int x = lane; x < c1 - c0; x += kWarpSize) {
            c_col[c0 + x] = in_keys[from + x];
            c_val[c0 + x] = in_vals[from + x];
        }
    }
}

}  // namespace memwall::spgemm_cuda::MEMWALL_CUDA_NS

// The kernels rowwise_hash and esc share: the exclusive scan of an int array (C's row pointers,
// esc's product offsets) and the products of each row. Non-template kernels: include this in one
// translation unit (device_cases.cu).
#pragma once

#include "kernels/spgemm/cuda/common.cuh"

namespace memwall::spgemm_cuda::MEMWALL_CUDA_NS {

// out[i] = in[0] + ... + in[i - 1] for i in 0..n (out has n + 1 elements). One block walks the
// array in coalesced tiles of blockDim.x, carrying the sum: a simple scan, its traffic 4 bytes
// read and 4 written per element.
__global__ void exclusive_scan_kernel(const int* in, int n, int* out) {
    __shared__ int scratch[kWarpSize];
    int carry = 0;
    for (int base = 0; base < n; base += block_threads()) {
        const int i = base + thread_index();
        const int v = i < n ? in[i] : 0;
        int total = 0;
        const int inclusive = block_inclusive_scan(v, scratch, total);
        if (i < n) out[i] = carry + inclusive - v;
        carry += total;
    }
    if (thread_index() == 0) out[n] = carry;
}

// products[i] = sum over A's row i of nnz(B's row k): one thread per row, grid-stride.
__global__ void row_products_kernel(DeviceCsr a, const int* b_row_ptr, int rows, int* products) {
    for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < rows;
         i += static_cast<int>(gridDim.x * blockDim.x)) {
        products[i] = row_products_of(a, b_row_ptr, i);
    }
}

}  // namespace memwall::spgemm_cuda::MEMWALL_CUDA_NS

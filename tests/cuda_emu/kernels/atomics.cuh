// Atomics: each flavour once per thread, a spin lock, and a histogram.
#pragma once

#include "cuda_emu/cuda.hpp"
#include "tests/cuda_emu/kernels/atomic_targets.hpp"

namespace memwall::emu_test::MEMWALL_CUDA_NS {

// Thread i applies values[i] to every target.
__global__ void apply_atomics_kernel(const int* values, AtomicTargets t) {
    const int v = values[blockIdx.x * blockDim.x + threadIdx.x];
    atomicAdd(t.int_sum, v);
    atomicAdd(t.uint_sum, static_cast<unsigned>(v));
    atomicAdd(t.ull_sum, static_cast<unsigned long long>(v));
    atomicAdd(t.float_sum, static_cast<float>(v));
    atomicAdd(t.double_sum, static_cast<double>(v));
    atomicSub(t.int_sub, v);
    atomicMin(t.int_min, v);
    atomicMax(t.int_max, v);
    atomicMax(t.ull_max, static_cast<unsigned long long>(v));
    atomicAnd(t.bits_and, ~(1u << (v % 32)));
    atomicOr(t.bits_or, 1u << (v % 32));
    atomicXor(t.bits_xor, static_cast<unsigned>(v));
    atomicInc(t.inc, 9u);
    atomicDec(t.dec, 9u);
    int seen = *t.cas_sum, old;
    while ((old = atomicCAS(t.cas_sum, seen, seen + v)) != seen) seen = old;
    atomicExch(t.exch, static_cast<float>(v));
}

// Every thread adds 1 to *counter under a lock taken with atomicCAS and released with
// atomicExch; the holder sleeps inside, so the others find it taken and must wait.
__global__ void locked_increment_kernel(int* lock, int* counter) {
    for (bool done = false; !done;) {
        if (atomicCAS(lock, 0, 1) == 0) {
            const int c = *static_cast<volatile int*>(counter);
            __nanosleep(100);
            *static_cast<volatile int*>(counter) = c + 1;
            __threadfence();
            atomicExch(lock, 0);
            done = true;
        }
    }
}

// hist[v % bins] += 1 for each value: atomics on many addresses.
__global__ void histogram_kernel(const int* values, int n, int* hist, int bins) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) atomicAdd(&hist[values[i] % bins], 1);
}

}  // namespace memwall::emu_test::MEMWALL_CUDA_NS

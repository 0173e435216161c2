// The source of tiny_mma.sm_80.cubin and tiny_mma.sm_90.cubin, the fixtures that pin
// memwall_sass_scan's opcode table (tests/tools): one kernel per matrix instruction it counts and
// one with none. Rebuild with
//   nvcc -O3 -arch=sm_80 -cubin -o tiny_mma.sm_80.cubin tiny_mma.cu   (and sm_90)
// and record the counts of `cuobjdump -sass` in tiny_mma.expected.
#include <cstdint>

__global__ void mma_kernel(const std::uint32_t* a, const std::uint32_t* b, float* d) {
    const unsigned t = threadIdx.x;
    float c[4] = {0, 0, 0, 0};
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[t]), "r"(a[t + 32]), "r"(a[t + 64]), "r"(a[t + 96]), "r"(b[t]), "r"(b[t + 32]));
    for (int i = 0; i < 4; ++i) {
        d[t * 4 + i] = c[i];
    }
}

__global__ void ldmatrix_kernel(const std::uint16_t* in, std::uint32_t* out) {
    __shared__ alignas(16) std::uint16_t tile[256];
    const unsigned t = threadIdx.x;
    for (unsigned i = t; i < 256; i += 32) {
        tile[i] = in[i];
    }
    __syncthreads();
    std::uint32_t r[4];
    const auto row = static_cast<std::uint32_t>(__cvta_generic_to_shared(&tile[(t % 16) * 8 + (t / 16) * 128]));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(row));
    for (int i = 0; i < 4; ++i) {
        out[t * 4 + i] = r[i];
    }
}

__global__ void stmatrix_kernel(const std::uint32_t* in, std::uint16_t* out) {
    __shared__ alignas(16) std::uint16_t tile[64];
    const unsigned t = threadIdx.x;
#if __CUDA_ARCH__ >= 900
    const auto row = static_cast<std::uint32_t>(__cvta_generic_to_shared(&tile[(t % 8) * 8]));
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(row), "r"(in[t]) : "memory");
#else
    tile[t] = static_cast<std::uint16_t>(in[t]);
#endif
    __syncthreads();
    out[t] = tile[t];
}

__global__ void cp_async_kernel(const std::uint32_t* in, std::uint32_t* out) {
    __shared__ alignas(16) std::uint32_t tile[128];
    const unsigned t = threadIdx.x;
    const auto dst = static_cast<std::uint32_t>(__cvta_generic_to_shared(&tile[t * 4]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(in + t * 4) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    out[t] = tile[(t * 5) % 128];
}

__global__ void plain_kernel(const float* in, float* out) { out[threadIdx.x] = in[threadIdx.x] * 2.0f; }

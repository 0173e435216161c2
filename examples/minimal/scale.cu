// y = a·x on a GPU (nvcc) and on cuda-emu (exact traffic), over two axes, checked by a reference.
#include <memwall/bench.cuh>

__global__ void scale(const float* x, float* y, long n, float a) {
    const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}

MEMWALL_BENCH(scale_kernel) {
    return memwall::Bench("scale")
        .axis("n", {1 << 16, 1 << 20})
        .axis("a", {0.5, 2.0})
        .input<float>("x", "n")
        .output<float>("y", "n")
        .cuda([](auto& c) {
            memwall::launch(memwall::blocks(c["n"], 256), 256, scale, c.in("x"), c.out("y"), c["n"], c["a"]);
        })
        .reference([](auto& c) {
            const float* x = c.in("x");
            float* y = c.out("y");
            for (long i = 0; i < long(c["n"]); ++i) y[i] = float(c["a"]) * x[i];
        });
}

// y = a·x, but the first element is off by one: its reference must catch it on cuda-emu.
#include <memwall/bench.cuh>

__global__ void scale_off(const float* x, float* y, long n, float a) {
    const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
    if (i < n) y[i] = a * x[i] + (i == 0 ? 1.0f : 0.0f);
}

MEMWALL_BENCH(scale_off) {
    return memwall::Bench("scale_wrong")
        .axis("n", {4096})
        .axis("a", {2.0})
        .input<float>("x", "n")
        .output<float>("y", "n")
        .cuda([](auto& c) {
            memwall::launch(memwall::blocks(c["n"], 256), 256, scale_off, c.in("x"), c.out("y"), c["n"], c["a"]);
        })
        .reference([](auto& c) {
            const float* x = c.in("x");
            float* y = c.out("y");
            for (long i = 0; i < long(c["n"]); ++i) y[i] = float(c["a"]) * x[i];
        });
}

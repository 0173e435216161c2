// Benchmarks of the builder's CUDA path (bench_test.cpp), compiled for cuda-emu as
// memwall_add_benchmark compiles a source, in a namespace of their own: a gather over i32
// indices with a bf16 output and a u8 and an i64 array beside it, checked by a reference, and a
// copy that leaves the last element unwritten.
#include <memwall/bench.cuh>

namespace kit_test_bench {

__global__ void gather(const float* x, const int* index, const unsigned char* bytes, __nv_bfloat16* y, long long* sum,
                       long n) {
    const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    const int k = index[i];
    y[i] = __float2bfloat16_rn(x[k]);
    sum[i] = k + bytes[i];
}

MEMWALL_BENCH(gather_probe) {
    return memwall::Bench("probe_gather")
        .axis("n", {1000})
        .axis("m", {64})
        .tunable("threads", {64, 128})
        .input<float>("x", "m")
        .input<int>("index", "n", "0", "m - 1")
        .input<std::uint8_t>("bytes", "n")
        .output<__nv_bfloat16>("y", "n")
        .output<long long>("sum", "n")
        .cuda([](auto& c) {
            memwall::launch(memwall::blocks(c["n"], c["threads"]), c["threads"], gather, c.in("x"), c.in("index"),
                            c.in("bytes"), c.out("y"), c.out("sum"), c["n"]);
        })
        .reference([](auto& c) {
            const float* x = c.in("x");
            const int* index = c.in("index");
            const std::uint8_t* bytes = c.in("bytes");
            __nv_bfloat16* y = c.out("y");
            long long* sum = c.out("sum");
            for (long i = 0; i < long(c["n"]); ++i) {
                y[i] = __float2bfloat16_rn(x[index[i]]);
                sum[i] = index[i] + bytes[i];
            }
        });
}

__global__ void copy_short(const double* x, double* y, long n) {
    const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
    if (i < n - 1) y[i] = x[i];
}

MEMWALL_BENCH(copy_short) {
    return memwall::Bench("probe_copy")
        .axis("n", {300})
        .input<double>("x", "n")
        .output<double>("y", "n")
        .cuda([](auto& c) {
            memwall::launch(memwall::blocks(c["n"], 128), 128, copy_short, c.in("x"), c.out("y"), c["n"]);
        })
        .reference([](auto& c) {
            const double* x = c.in("x");
            double* y = c.out("y");
            for (long i = 0; i < long(c["n"]); ++i) y[i] = x[i];
        });
}

}  // namespace kit_test_bench

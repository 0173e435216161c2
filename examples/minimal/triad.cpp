// STREAM's triad on the CPU, without a reference: its cases are stored `unchecked`.
#include <memwall/bench.hpp>

MEMWALL_BENCH(triad_loop) {
    return memwall::Bench("triad")
        .axis("n", {1 << 20, 1 << 24})
        .input<float>("x", "n")
        .input<float>("y", "n")
        .output<float>("z", "n")
        .cpu([](auto& c) {
            const float *x = c.in("x"), *y = c.in("y");
            float* z = c.out("z");
#pragma omp parallel for
            for (long i = 0; i < long(c["n"]); ++i) z[i] = x[i] + 3.0f * y[i];
        });
}

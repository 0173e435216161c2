// Two variants of a checked triad on the CPU: one right, one that scales y by 2 instead of 3.
#include <memwall/bench.hpp>

namespace {

memwall::Bench triad(float s) {
    return memwall::Bench("triad_checked")
        .axis("n", {4096})
        .input<float>("x", "n")
        .input<float>("y", "n")
        .output<float>("z", "n")
        .cpu([s](auto& c) {
            const float *x = c.in("x"), *y = c.in("y");
            float* z = c.out("z");
            for (long i = 0; i < long(c["n"]); ++i) z[i] = x[i] + s * y[i];
        })
        .reference([](auto& c) {
            const float *x = c.in("x"), *y = c.in("y");
            float* z = c.out("z");
            for (long i = 0; i < long(c["n"]); ++i) z[i] = x[i] + 3.0f * y[i];
        });
}

}  // namespace

MEMWALL_BENCH(right) { return triad(3.0f); }
MEMWALL_BENCH(wrong) { return triad(2.0f); }

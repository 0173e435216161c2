// A benchmark program in one file: the kernel, and a chain that declares its axes, arrays and
// optionally its reference. memwall provides main (memwall_add_benchmark in CMake), which gives
// the program every memwall command for it:
//
//   #include <memwall/bench.hpp>           // <memwall/bench.cuh> in a CUDA source (.cu)
//   MEMWALL_BENCH(triad_loop) {
//       return memwall::Bench("triad").axis("n", {1 << 20, 1 << 24})
//           .input<float>("x", "n").input<float>("y", "n").output<float>("z", "n")
//           .cpu([](auto& c) { ... c.in<float>("x") ... c.out<float>("z") ... c["n"] ... })
//           .reference([](auto& c) { ... });  // optional: without it, cases are `unchecked`
//   }
//
// The benchmark's family is the Bench's name, its variant the MEMWALL_BENCH name; benchmarks of
// one family with the same axes and arrays are its variants, checked by the first one's reference.
// docs/your-own-kernel.md has the rest.
#pragma once

#include "kernels/kit/bench.hpp"

namespace memwall {

using kit::Bench;
using kit::BenchArgs;

}  // namespace memwall

// How this compile makes device cases: none for a CPU source; bench.cuh sets it for CUDA ones.
#ifndef MEMWALL_BENCH_BUILD
#define MEMWALL_BENCH_BUILD \
    ::memwall::kit::BenchBuild { ::memwall::kit::BenchBuild::Kind::cpu, nullptr }
#endif

// Defines the benchmark `id`: the body returns its Bench.
#define MEMWALL_BENCH(id)                                                              \
    static ::memwall::Bench memwall_bench_##id();                                      \
    [[maybe_unused]] static const bool memwall_bench_registered_##id =                 \
        ::memwall::kit::register_bench(#id, &memwall_bench_##id, MEMWALL_BENCH_BUILD); \
    static ::memwall::Bench memwall_bench_##id()

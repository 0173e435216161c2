// Benchmarks declared with MEMWALL_BENCH (kit/bench.hpp) as the catalogue's families: a family
// per Bench name, whose workload fills the inputs from the seed and runs the reference, and a
// variant per benchmark and backend (cpu from a C++ source; cuda-emu and cuda from a CUDA
// source's two builds, through add_cuda_variants).
#pragma once

#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "kernels/kit/bench.hpp"

namespace memwall::kit {

struct RegisteredBench {
    std::string id;
    Bench (*define)() = nullptr;
    BenchBuild build;
};

// What MEMWALL_BENCH registered in this program, in order.
const std::vector<RegisteredBench>& registered_benches();

// Adds the benchmarks' families and variants. Benchmarks of one family must declare the same
// axes and arrays; the first one's reference checks them all. Throws std::logic_error for a malformed declaration (an
// expression naming no axis, a CUDA body in a C++ source, two benchmarks of one name), naming the benchmark.
void add_benches(Catalogue& catalogue, const std::vector<RegisteredBench>& benches);

// add_benches of registered_benches(): the catalogue of a program memwall_add_benchmark builds.
void register_benches(Catalogue& catalogue);

}  // namespace memwall::kit

// The kernels the CPU ceilings are measured with, each vectorised and unrolled for the vector
// ISA chosen at run time (AVX-512 or AVX2 with FMA; plain loops elsewhere), so one build
// measures the hardware's limits on either kind of x86 host and on an AVX-512 host through the
// AVX2 path. No kernel is the fastest at every level: a read-only reduction issues two loads a
// cycle where a copy or a=a*b+c also store, nontemporal stores skip the read-for-ownership DRAM
// pays on every other store. A level's ceiling is the best of them (profiler/measure_ceilings.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace memwall {

enum class CeilingIsa { generic, avx2, avx512 };
std::string_view to_string(CeilingIsa isa);  // "generic", "avx2", "avx512"
// "avx2" or "avx512" where the host runs it; empty: MEMWALL_ISA when set, else the widest this
// host runs. Throws std::invalid_argument for another name or an ISA the host lacks.
CeilingIsa ceiling_isa(std::string_view name);

enum class BandwidthKernel { read, copy, axpb, nt_store };
inline constexpr BandwidthKernel kAllBandwidthKernels[] = {BandwidthKernel::read, BandwidthKernel::copy,
                                                           BandwidthKernel::axpb, BandwidthKernel::nt_store};
// Short names ("read", "copy", "axpb", "nt-store") and what each does, for the method text.
std::string_view to_string(BandwidthKernel k);
std::string_view describe(BandwidthKernel k);

// Bytes one pass moves over a working set of n floats: read 4n (loads), copy 4n (the first half
// read, the second written), axpb 8n (each element loaded and stored), nt-store 4n (stores that
// bypass the caches). Counted as STREAM counts them: the read for ownership of a cached store is
// traffic the hardware adds, not the kernel's.
double bytes_per_pass(BandwidthKernel k, std::size_t n);

// One pass of `k` over a (n floats, 64-byte aligned, n a multiple of 16). Returns a value that
// depends on the data, so a read-only pass cannot be dropped.
float bandwidth_pass(BandwidthKernel k, CeilingIsa isa, float* a, std::size_t n);

// FP32 FMA chains: `iters` x fma_flops_per_iteration FLOPs in registers (accumulators enough to
// cover the FMA latency times its throughput); b and c should keep the values bounded (0.5).
float fma_chains(CeilingIsa isa, long iters, float b, float c);
double fma_flops_per_iteration(CeilingIsa isa);
// "16 x 512-bit accumulators"
std::string fma_chains_shape(CeilingIsa isa);

// The documented FMA units per core for the ISA's vectors (16 FP32 lanes for avx512, 8 for
// avx2): 2 on Intel's cores since Haswell and on AMD's since Zen 2 with AVX2; with AVX-512, 2 on
// Intel's server cores and AMD's Zen 5, 1 on Zen 4 (two 256-bit halves per 512-bit FMA). 0 for
// the generic ISA or another vendor: no limit to check against.
int fma_units(CeilingIsa isa);
int fma_lanes(CeilingIsa isa);

// A chain of `iters` x kClockChainLength dependent register additions, one cycle each on every
// x86 core since the P6: its time is that many cycles of the core's current clock. Off x86 the
// chain is empty and its time means nothing (the generic ISA measures no clock).
inline constexpr long kClockChainLength = 64;
long dependent_adds(long iters);

}  // namespace memwall

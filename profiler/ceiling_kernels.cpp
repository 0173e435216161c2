#include "profiler/ceiling_kernels.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

#include <cstring>
#endif

namespace memwall {

std::string_view to_string(CeilingIsa isa) {
    switch (isa) {
        case CeilingIsa::avx2: return "avx2";
        case CeilingIsa::avx512: return "avx512";
        case CeilingIsa::generic: break;
    }
    return "generic";
}

namespace {

bool host_runs(CeilingIsa isa) {
#if defined(__x86_64__)
    if (isa == CeilingIsa::avx512) return __builtin_cpu_supports("avx512f");
    if (isa == CeilingIsa::avx2) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
    return isa == CeilingIsa::generic;
}

}  // namespace

CeilingIsa ceiling_isa(std::string_view name) {
    // The override the CPU kernels honour (core/isa.hpp, a layer above this one), so the
    // ceilings of a run on the AVX2 path are the AVX2 path's.
    if (const char* env = std::getenv("MEMWALL_ISA"); name.empty() && env && *env) name = env;
    if (name.empty()) {
        for (CeilingIsa isa : {CeilingIsa::avx512, CeilingIsa::avx2})
            if (host_runs(isa)) return isa;
        return CeilingIsa::generic;
    }
    for (CeilingIsa isa : {CeilingIsa::avx512, CeilingIsa::avx2}) {
        if (name != to_string(isa)) continue;
        if (!host_runs(isa)) throw std::invalid_argument("ceilings: this CPU does not run " + std::string(name));
        return isa;
    }
    throw std::invalid_argument("ceilings: unknown ISA '" + std::string(name) + "' (expected avx2 or avx512)");
}

std::string_view to_string(BandwidthKernel k) {
    switch (k) {
        case BandwidthKernel::read: return "read";
        case BandwidthKernel::copy: return "copy";
        case BandwidthKernel::axpb: return "axpb";
        case BandwidthKernel::nt_store: return "nt-store";
    }
    return "?";
}

std::string_view describe(BandwidthKernel k) {
    switch (k) {
        case BandwidthKernel::read: return "read-only reduction";
        case BandwidthKernel::copy: return "copy";
        case BandwidthKernel::axpb: return "ERT a=a*b+c";
        case BandwidthKernel::nt_store: return "nontemporal stores";
    }
    return "?";
}

double bytes_per_pass(BandwidthKernel k, std::size_t n) {
    const double floats = static_cast<double>(n) * sizeof(float);
    return k == BandwidthKernel::axpb ? 2 * floats : floats;
}

namespace {

// The plain loops, for hosts without AVX2; the compiler vectorises them for the build's ISA.
float pass_generic(BandwidthKernel k, float* a, std::size_t n) {
    float sum = 0;
    switch (k) {
        case BandwidthKernel::read:
            for (std::size_t i = 0; i < n; ++i) sum += a[i];
            break;
        case BandwidthKernel::copy:
            for (std::size_t i = 0; i < n / 2; ++i) a[n / 2 + i] = a[i];
            break;
        case BandwidthKernel::axpb:
            for (std::size_t i = 0; i < n; ++i) a[i] = a[i] * 0.5f + 0.5f;
            break;
        case BandwidthKernel::nt_store:
            for (std::size_t i = 0; i < n; ++i) a[i] = 1.0f;
            break;
    }
    return sum;
}

#if defined(__x86_64__)
// The sum of a vector's lanes. GCC 12's _mm512_reduce_add_ps reads an undefined register, which
// -Werror=uninitialized refuses.
[[gnu::target("avx512f")]] float lane_sum(__m512 v) {
    alignas(64) float lanes[16];
    _mm512_store_ps(lanes, v);
    float sum = 0;
    for (float x : lanes) sum += x;
    return sum;
}

// Each kernel keeps enough independent work in flight to cover its latencies: a reduction adds
// into eight accumulators (4-cycle adds, two loads a cycle), the others are unrolled by four.
// Halves are whole vectors: n is a multiple of 16 floats, its half of 8.

[[gnu::target("avx512f")]] float pass_avx512(BandwidthKernel k, float* a, std::size_t n) {
    constexpr std::size_t W = 16;
    const __m512 half = _mm512_set1_ps(0.5f), one = _mm512_set1_ps(1.0f);
    std::size_t i = 0;
    switch (k) {
        case BandwidthKernel::read: {
            __m512 s[8];
            for (auto& x : s) x = _mm512_setzero_ps();
            for (; i + 8 * W <= n; i += 8 * W)
                for (std::size_t j = 0; j < 8; ++j) s[j] = _mm512_add_ps(s[j], _mm512_load_ps(a + i + j * W));
            for (; i < n; i += W) s[0] = _mm512_add_ps(s[0], _mm512_load_ps(a + i));
            for (std::size_t j = 1; j < 8; ++j) s[0] = _mm512_add_ps(s[0], s[j]);
            return lane_sum(s[0]);
        }
        case BandwidthKernel::copy: {
            const std::size_t h = n / 2;
            float* b = a + h;
            // The half is a multiple of 8 floats: the stores may start mid-line, and up to 8
            // floats are left for a scalar tail.
#pragma GCC unroll 4
            for (; i + W <= h; i += W) _mm512_storeu_ps(b + i, _mm512_load_ps(a + i));
            for (; i < h; ++i) b[i] = a[i];
            return 0;
        }
        case BandwidthKernel::axpb:
#pragma GCC unroll 4
            for (; i < n; i += W) _mm512_store_ps(a + i, _mm512_fmadd_ps(_mm512_load_ps(a + i), half, half));
            return 0;
        case BandwidthKernel::nt_store:
#pragma GCC unroll 4
            for (; i < n; i += W) _mm512_stream_ps(a + i, one);
            _mm_sfence();  // the stores are complete, and counted, when the pass returns
            return 0;
    }
    return 0;
}

[[gnu::target("avx2,fma")]] float pass_avx2(BandwidthKernel k, float* a, std::size_t n) {
    constexpr std::size_t W = 8;
    const __m256 half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f);
    std::size_t i = 0;
    switch (k) {
        case BandwidthKernel::read: {
            __m256 s[8];
            for (auto& x : s) x = _mm256_setzero_ps();
            for (; i + 8 * W <= n; i += 8 * W)
                for (std::size_t j = 0; j < 8; ++j) s[j] = _mm256_add_ps(s[j], _mm256_load_ps(a + i + j * W));
            for (; i < n; i += W) s[0] = _mm256_add_ps(s[0], _mm256_load_ps(a + i));
            for (std::size_t j = 1; j < 8; ++j) s[0] = _mm256_add_ps(s[0], s[j]);
            alignas(32) float lanes[W];
            _mm256_store_ps(lanes, s[0]);
            float sum = 0;
            for (float x : lanes) sum += x;
            return sum;
        }
        case BandwidthKernel::copy: {
            const std::size_t h = n / 2;
            float* b = a + h;
#pragma GCC unroll 4
            for (; i < h; i += W) _mm256_store_ps(b + i, _mm256_load_ps(a + i));
            return 0;
        }
        case BandwidthKernel::axpb:
#pragma GCC unroll 4
            for (; i < n; i += W) _mm256_store_ps(a + i, _mm256_fmadd_ps(_mm256_load_ps(a + i), half, half));
            return 0;
        case BandwidthKernel::nt_store:
#pragma GCC unroll 4
            for (; i < n; i += W) _mm256_stream_ps(a + i, one);
            _mm_sfence();
            return 0;
    }
    return 0;
}

// 16 zmm accumulators: the FMA latency (4 cycles) times two FMA units, twice over, and half of
// the 32 registers. AVX2's 16 registers hold 12 with room for the constants.
[[gnu::target("avx512f")]] float fma_avx512(long iters, float b, float c) {
    __m512 acc[16];
    for (int j = 0; j < 16; ++j) acc[j] = _mm512_set1_ps(1.0f + 0.01f * static_cast<float>(j));
    const __m512 vb = _mm512_set1_ps(b), vc = _mm512_set1_ps(c);
    for (long i = 0; i < iters; ++i)
        for (int j = 0; j < 16; ++j) acc[j] = _mm512_fmadd_ps(acc[j], vb, vc);
    for (int j = 1; j < 16; ++j) acc[0] = _mm512_add_ps(acc[0], acc[j]);
    return lane_sum(acc[0]);
}

[[gnu::target("avx2,fma")]] float fma_avx2(long iters, float b, float c) {
    __m256 acc[12];
    for (int j = 0; j < 12; ++j) acc[j] = _mm256_set1_ps(1.0f + 0.01f * static_cast<float>(j));
    const __m256 vb = _mm256_set1_ps(b), vc = _mm256_set1_ps(c);
    for (long i = 0; i < iters; ++i)
        for (int j = 0; j < 12; ++j) acc[j] = _mm256_fmadd_ps(acc[j], vb, vc);
    for (int j = 1; j < 12; ++j) acc[0] = _mm256_add_ps(acc[0], acc[j]);
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, acc[0]);
    float sum = 0;
    for (float x : lanes) sum += x;
    return sum;
}
#endif

// Eight scalar chains: without an ISA to name, the FLOP count is what the compiler makes of it.
float fma_generic(long iters, float b, float c) {
    float acc[8];
    for (int j = 0; j < 8; ++j) acc[j] = 1.0f + 0.01f * static_cast<float>(j);
    for (long i = 0; i < iters; ++i)
        for (float& x : acc) x = x * b + c;
    float sum = 0;
    for (float x : acc) sum += x;
    return sum;
}

}  // namespace

float bandwidth_pass(BandwidthKernel k, CeilingIsa isa, float* a, std::size_t n) {
#if defined(__x86_64__)
    if (isa == CeilingIsa::avx512) return pass_avx512(k, a, n);
    if (isa == CeilingIsa::avx2) return pass_avx2(k, a, n);
#endif
    return pass_generic(k, a, n);
}

float fma_chains(CeilingIsa isa, long iters, float b, float c) {
#if defined(__x86_64__)
    if (isa == CeilingIsa::avx512) return fma_avx512(iters, b, c);
    if (isa == CeilingIsa::avx2) return fma_avx2(iters, b, c);
#endif
    return fma_generic(iters, b, c);
}

double fma_flops_per_iteration(CeilingIsa isa) {
    switch (isa) {
        case CeilingIsa::avx512: return 2.0 * 16 * 16;
        case CeilingIsa::avx2: return 2.0 * 12 * 8;
        case CeilingIsa::generic: break;
    }
    return 2.0 * 8;
}

std::string fma_chains_shape(CeilingIsa isa) {
    switch (isa) {
        case CeilingIsa::avx512: return "16 x 512-bit accumulators";
        case CeilingIsa::avx2: return "12 x 256-bit accumulators";
        case CeilingIsa::generic: break;
    }
    return "8 scalar accumulators";
}

int fma_lanes(CeilingIsa isa) { return isa == CeilingIsa::avx512 ? 16 : isa == CeilingIsa::avx2 ? 8 : 1; }

int fma_units(CeilingIsa isa) {
#if defined(__x86_64__)
    if (isa == CeilingIsa::generic) return 0;
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return 0;
    char vendor[13] = {};
    std::memcpy(vendor, &ebx, 4);
    std::memcpy(vendor + 4, &edx, 4);
    std::memcpy(vendor + 8, &ecx, 4);
    if (std::strcmp(vendor, "GenuineIntel") == 0) return 2;
    if (std::strcmp(vendor, "AuthenticAMD") != 0) return 0;
    if (isa == CeilingIsa::avx2) return 2;
    __get_cpuid(1, &eax, &ebx, &ecx, &edx);
    const unsigned family = ((eax >> 8) & 0xf) + ((eax >> 20) & 0xff);
    return family >= 0x1a ? 2 : 1;  // Zen 5 and later: full-width 512-bit FMA units
#else
    (void)isa;
    return 0;
#endif
}

#if defined(__x86_64__)
#define MEMWALL_ADD4 "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
#define MEMWALL_ADD16 MEMWALL_ADD4 MEMWALL_ADD4 MEMWALL_ADD4 MEMWALL_ADD4
#endif

long dependent_adds(long iters) {
    long x = 0, one = 1;
    asm volatile("" : "+r"(one));  // a register the compiler cannot see is 1
    for (long i = 0; i < iters; ++i) {
#if defined(__x86_64__)
        // The loop's own counter runs beside the chain on another port, so the chain's latency
        // alone sets the time. Register operands: Golden Cove and later fold additions of an
        // immediate at rename, several a cycle, where a register's still take a cycle each.
        asm volatile(MEMWALL_ADD16 MEMWALL_ADD16 MEMWALL_ADD16 MEMWALL_ADD16 : "+r"(x) : "r"(one));
#else
        asm volatile("" : "+r"(x));
#endif
    }
    return x;
}

}  // namespace memwall

// The ISA level a kernel source is being compiled for. memwall_add_family compiles each of a
// family's ISA_SOURCES twice, with MEMWALL_KERNEL_LEVEL=3 (x86-64-v3, AVX2 + FMA, the project's
// baseline) and MEMWALL_KERNEL_LEVEL=4 (x86-64-v4, AVX-512), and the family calls the one that
// core/isa.hpp's active_isa() names.
//
// A kernel source includes its other headers first, then this one, then kit/simd.hpp, and wraps
// what follows between MEMWALL_KERNEL_BEGIN and MEMWALL_KERNEL_END: after BEGIN comes kernel code
// alone (simd.hpp, a family's kernel header such as conv/cpu_tiles.hpp), whose standard headers
// are in already (the common ones below). Level 4 raises the target
// for those functions alone (#pragma GCC target), not with -march=x86-64-v4 for the whole file:
// the standard library's templates the file instantiates are then compiled for the baseline, so
// the linker, which keeps one copy of each, can never hand AVX-512 code to the AVX2 path. (In
// C++ the pragma does not define __AVX512F__, which is why simd.hpp keys on the level.) Helpers
// belong in an anonymous namespace and entry points are specialisations for `kKernelIsa`, so
// the two compiles define different symbols.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>
#include <immintrin.h>

#include "core/isa.hpp"

#if !defined(MEMWALL_KERNEL_LEVEL)
#error "kernel_isa.hpp is for ISA_SOURCES of memwall_add_family, which set MEMWALL_KERNEL_LEVEL"
#elif MEMWALL_KERNEL_LEVEL == 4
#define MEMWALL_KERNEL_BEGIN \
    _Pragma("GCC push_options") _Pragma("GCC target(\"avx512f,avx512cd,avx512bw,avx512dq,avx512vl\")")
#define MEMWALL_KERNEL_END _Pragma("GCC pop_options")
#elif MEMWALL_KERNEL_LEVEL == 3
#define MEMWALL_KERNEL_BEGIN
#define MEMWALL_KERNEL_END
#else
#error "MEMWALL_KERNEL_LEVEL is 3 or 4"
#endif

namespace memwall::kit {
// Internal linkage (const, not inline): each compile has its own.
constexpr Isa kKernelIsa = MEMWALL_KERNEL_LEVEL == 4 ? Isa::avx512 : Isa::avx2;
}  // namespace memwall::kit

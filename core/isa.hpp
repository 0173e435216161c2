// The x86-64 level the CPU kernels run at. Every family's CPU kernels are built twice, for
// x86-64-v3 (AVX2 + FMA: 8-float vectors, 16 registers) and x86-64-v4 (AVX-512: 16-float vectors,
// 32 registers), and each run picks one at run time: the host's, or a lower one asked for with
// MEMWALL_ISA (`--isa` sets it), so an AVX-512 host can measure the path an AVX2 host runs.
#pragma once

#include <string>
#include <string_view>

namespace memwall {

enum class Isa { avx2, avx512 };

// "avx2", "avx512": the names MEMWALL_ISA and --isa take.
std::string_view isa_name(Isa isa);
// Parses a name of isa_name; throws UsageError with one line naming the choices.
Isa parse_isa(std::string_view name);
// The highest level this CPU (and its OS, which must save the AVX-512 registers) runs: avx512
// with AVX-512 F, CD, BW, DQ and VL, else avx2. A CPU without AVX2 and FMA is below memwall's
// floor (x86-64-v3): it runs no CPU kernel.
Isa host_isa();
// MEMWALL_ISA when set (and not above the host: UsageError with one line), else host_isa().
// Read on every call, so a case worker inherits the parent's choice through its environment.
Isa active_isa();
// Sets MEMWALL_ISA for this process and its children, after checking it as active_isa() does.
void set_active_isa(Isa isa);
// "avx2 (x86-64-v3; the CPU has avx512)", or "avx512 (x86-64-v4)": which path runs, for people.
std::string isa_summary();

}  // namespace memwall

#include "core/isa.hpp"

#include <cstdlib>
#include <string>

#include "core/errors.hpp"

namespace memwall {

namespace {

constexpr const char* kIsaVariable = "MEMWALL_ISA";

bool has_avx512() {
#if defined(__x86_64__)
    __builtin_cpu_init();
    // libgcc's checks also require the OS to save the ZMM and mask registers (XCR0).
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vl");
#else
    return false;
#endif
}

// Throws when `isa` is above what the host runs; `asker` ("--isa avx512") names the request.
Isa checked(Isa isa, const std::string& asker) {
    if (isa == Isa::avx512 && host_isa() != Isa::avx512)
        throw UsageError(asker + " asks for AVX-512, which this CPU lacks (its level is avx2)");
    return isa;
}

}  // namespace

std::string_view isa_name(Isa isa) { return isa == Isa::avx512 ? "avx512" : "avx2"; }

Isa parse_isa(std::string_view name) {
    if (name == "avx2") return Isa::avx2;
    if (name == "avx512") return Isa::avx512;
    throw UsageError("unknown ISA '" + std::string(name) + "': choose avx2 or avx512");
}

Isa host_isa() {
    static const Isa host = has_avx512() ? Isa::avx512 : Isa::avx2;
    return host;
}

Isa active_isa() {
    const char* asked = std::getenv(kIsaVariable);
    if (asked == nullptr || *asked == '\0') return host_isa();
    const std::string_view name = asked;
    const std::string asker = std::string(kIsaVariable) + "=" + asked;
    if (name == "avx2") return Isa::avx2;
    if (name == "avx512") return checked(Isa::avx512, asker);
    throw UsageError(asker + ": unknown ISA, choose avx2 or avx512");
}

std::string isa_summary() {
    const Isa isa = active_isa();
    std::string s = std::string(isa_name(isa)) + (isa == Isa::avx512 ? " (x86-64-v4" : " (x86-64-v3");
    if (isa != host_isa()) s += "; the CPU has " + std::string(isa_name(host_isa()));
    return s + ")";
}

void set_active_isa(Isa isa) {
    const std::string name(isa_name(isa));
    checked(isa, "--isa " + name);
    ::setenv(kIsaVariable, name.c_str(), 1);
}

}  // namespace memwall

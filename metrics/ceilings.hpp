// The roofs of the roofline: bandwidth per cache level and DRAM, and compute peaks, each with how it
// was obtained and whether it can be trusted. A run's set holds the host's (profiler/measure_ceilings.hpp)
// and a CUDA device's, measured on it (gpu/device_ceilings.hpp) or theoretical (gpu_ceilings.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace memwall {

enum class CeilingKind { bandwidth, compute };
std::string_view to_string(CeilingKind k);
std::optional<CeilingKind> ceiling_kind_from(std::string_view s);

struct Ceiling {
    std::string name;  // bandwidth: "l1", "l2", "llc", "dram"; compute: "fp32_fma"
    CeilingKind kind = CeilingKind::bandwidth;
    double value = 0;           // B/s or FLOP/s
    std::string unit;           // "B/s" or "FLOP/s"
    std::string method;         // how it was obtained, shown beside it
    double capacity_bytes = 0;  // one instance of the cache level (0 for dram and compute)
    // Why the figure cannot be trusted (measured on a busy machine, contradicts the memory
    // hierarchy); empty when it can. Flagged figures are kept and shown with the reason.
    std::string unreliable;

    bool reliable() const { return unreliable.empty(); }
};

// A CUDA device's ceilings sit in a run's set beside the host's, named with this prefix
// ("cuda:dram"); Ceilings::for_backend gives each backend its own.
inline constexpr std::string_view kCudaCeilingPrefix = "cuda:";

struct Ceilings {
    std::vector<Ceiling> items;
    // The run that measured them, when a run reuses another's; 0 when measured for this run.
    std::int64_t reused_from_run = 0;

    const Ceiling* find(std::string_view name) const;
    // The compute ceiling called `name` ("fp32_fma", "bf16_tensor"), FLOP/s; 0 when none.
    double compute_peak(std::string_view name) const;
    bool empty() const { return items.empty(); }
    // None of them flagged unreliable.
    bool reliable() const;
    // The roofs a case of `backend` is placed against: for "cuda" the CUDA device's (prefix
    // removed), for any other backend the host's. A case is never placed on another machine's
    // roofs: a cuda case of a run without device ceilings gets none.
    Ceilings for_backend(std::string_view backend) const;
};

}  // namespace memwall

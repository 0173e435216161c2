#include "metrics/ceilings.hpp"

#include <algorithm>

namespace memwall {

std::string_view to_string(CeilingKind k) { return k == CeilingKind::bandwidth ? "bandwidth" : "compute"; }

std::optional<CeilingKind> ceiling_kind_from(std::string_view s) {
    if (s == "bandwidth") return CeilingKind::bandwidth;
    if (s == "compute") return CeilingKind::compute;
    return std::nullopt;
}

const Ceiling* Ceilings::find(std::string_view name) const {
    for (const auto& c : items)
        if (c.name == name) return &c;
    return nullptr;
}

double Ceilings::compute_peak(std::string_view name) const {
    const Ceiling* c = find(name);
    return c && c->kind == CeilingKind::compute ? c->value : 0;
}

bool Ceilings::reliable() const {
    return std::all_of(items.begin(), items.end(), [](const Ceiling& c) { return c.reliable(); });
}

Ceilings Ceilings::for_backend(std::string_view backend) const {
    Ceilings out;
    out.reused_from_run = reused_from_run;
    const bool cuda = backend == "cuda";
    for (const Ceiling& c : items) {
        const bool device = c.name.starts_with(kCudaCeilingPrefix);
        if (device != cuda) continue;
        out.items.push_back(c);
        if (device) out.items.back().name.erase(0, kCudaCeilingPrefix.size());
    }
    return out;
}

}  // namespace memwall

// Sweep planning (harness/sweep.cpp) as `memwall run` plans a sweep: each line of the input is
// "family NAME", "variant NAME", "axis name=spec", "zip a,b" or "unzip", over a catalogue with
// zips, a preset, constraints, a validator and variants with and without tunables. An accepted
// plan is walked whole, and what its batches give must be what it counted: every case once,
// each problem's cases adjacent within a batch, no batch over its bound.
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "core/space.hpp"
#include "harness/sweep.hpp"

using namespace memwall;

namespace {

// The toy variants are planned, never measured: a model without counters is enough.
std::vector<Counter> no_counters(const Params&, const MemoryHierarchy&) { return {}; }

Catalogue make_catalogue() {
    Catalogue c;
    Family f;
    f.name = "toy";
    const Axis m = bounded(int_axis("m", {1, 2}, ""), 1, 1 << 20);
    f.problem_axes = {m, int_axis("k", {10, 20}, ""), int_axis("n", {5}, ""),
                      enum_axis("shape", {"square", "wide", "custom"}, {"custom"}, "")};
    f.zipped = {{"m", "k"}};
    f.presets = {{"shape", "square", Params{}, {}}, {"shape", "wide", Params{}, {}}};
    f.presets[0].sets.set("n", std::int64_t{64});
    f.presets[1].sets.set("n", std::int64_t{256});
    f.validate = [](const Params& p) {
        if (p.integer("m") > 100000) throw UsageError("m over 100000");
    };
    f.make_workload = [](const Params&, std::uint64_t) { return std::make_unique<Workload>(); };
    c.add_family(std::move(f));
    Variant a;
    a.model = no_counters;
    a.name = "a";
    c.add_variant("toy", a);
    Variant b;
    b.model = no_counters;
    b.name = "b";
    b.tunables = {int_axis("t", {1, 4}, ""), enum_axis("order", {"ij", "ji"}, {"ij", "ji"}, "")};
    b.constraints = {{"t <= n", [](const Params& p) { return p.integer("t") <= p.integer("n"); }}};
    c.add_variant("toy", b);

    Family g;
    g.name = "other";
    g.problem_axes = {int_axis("len", {8}, "")};
    g.make_workload = [](const Params&, std::uint64_t) { return std::make_unique<Workload>(); };
    c.add_family(std::move(g));
    Variant only;
    only.model = no_counters;
    only.name = "only";
    only.tunables = {int_axis("unroll", {1, 2}, "")};
    c.add_variant("other", only);
    return c;
}

SweepSpec spec_of(std::string_view text) {
    SweepSpec s;
    while (!text.empty()) {
        const auto eol = text.find('\n');
        const std::string_view line = text.substr(0, eol);
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
        if (line.starts_with("family ")) s.families.emplace_back(line.substr(7));
        if (line.starts_with("variant ")) s.variants.emplace_back(line.substr(8));
        if (line.starts_with("axis ")) s.overrides.emplace_back(line.substr(5));
        if (line.starts_with("zip ")) s.zips.push_back(zip_names(line.substr(4)));
        if (line == "unzip") s.unzip = true;
    }
    return s;
}

// Whether some variant's space could exceed `most` points: its space with the overrides it has
// and, unzipped, without its default zips (the spec's zips only shrink it). Planning walks every
// point, so such a legal sweep would be slow here, not wrong.
bool larger_than(const Catalogue& cat, const SweepSpec& spec, std::size_t most) {
    for (const auto& f : cat.families())
        for (const auto& v : f.variants) {
            Space space = f.space(v);
            if (spec.unzip) space.clear_zips();
            for (const auto& o : spec.overrides)
                if (space.find(split_override(o).first)) space.apply_override(o);
            if (space.size_unconstrained() > most) return true;
        }
    return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const Catalogue catalogue = make_catalogue();
    const SweepSpec spec = spec_of(std::string_view(reinterpret_cast<const char*>(data), size));
    try {
        if (larger_than(catalogue, spec, 20000)) return 0;
        const SweepPlan plan(spec, catalogue);
        std::set<std::string> seen;
        SweepPlan::Pass pass = plan.pass();
        for (auto batch = pass.next(); !batch.empty(); batch = pass.next()) {
            std::map<std::pair<const Variant*, std::string>, std::size_t> runs;  // problems per variant
            std::set<std::string> closed;  // problems whose cases have ended in this batch
            std::string current;
            for (const PlannedCase& c : batch) {
                if (!seen.insert(c.name()).second) __builtin_trap();  // a case given twice
                const std::string problem = c.family->name + c.problem.canonical();
                if (problem != current) {
                    if (closed.count(problem)) __builtin_trap();  // a problem's cases apart
                    closed.insert(current);
                    current = problem;
                }
                runs[{c.variant, problem}] = 1;
            }
            std::map<const Variant*, std::size_t> per_variant;
            for (const auto& [key, one] : runs) per_variant[key.first] += one;
            for (const auto& [v, n] : per_variant)
                if (n > SweepPlan::kBatchProblems) __builtin_trap();
        }
        if (seen.size() != plan.size()) __builtin_trap();  // the walk and the count disagree
    } catch (const UsageError&) {}
    return 0;
}

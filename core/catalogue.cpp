#include "core/catalogue.hpp"

#include <chrono>
#include <stdexcept>

#include "core/errors.hpp"

namespace memwall {

double Instance::run_timed() {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    const auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(t1 - t0).count();
}

const Variant* Family::find(const std::string& variant, Backend b) const {
    for (const auto& v : variants)
        if (v.name == variant && v.backend == b) return &v;
    return nullptr;
}

Space Family::space(const Variant& v) const {
    std::vector<Axis> axes = problem_axes;
    for (auto a : v.problem_axes) {
        a.role = AxisRole::problem;
        axes.push_back(std::move(a));
    }
    for (auto a : v.tunables) {
        a.role = AxisRole::tunable;
        axes.push_back(std::move(a));
    }
    std::vector<Constraint> cs = constraints;
    cs.insert(cs.end(), v.constraints.begin(), v.constraints.end());
    Space s(std::move(axes), std::move(cs));
    for (const auto& z : zipped) s.zip(z);
    s.add_presets(presets);
    s.set_validator(validate);
    return s;
}

Family& Catalogue::add_family(Family f) {
    for (const auto& g : families_)
        if (g.name == f.name) throw std::logic_error("family '" + f.name + "' registered twice");
    // Its variants pass add_variant's checks like any added later.
    std::vector<Variant> variants = std::move(f.variants);
    f.variants.clear();
    families_.push_back(std::move(f));
    for (Variant& v : variants) add_variant(families_.back().name, std::move(v));
    return families_.back();
}

void Catalogue::add_variant(const std::string& family_name, Variant v) {
    for (auto& f : families_) {
        if (f.name != family_name) continue;
        if (f.find(v.name, v.backend))
            throw std::logic_error("variant '" + family_name + "/" + v.name + "' registered twice for backend " +
                                   std::string(to_string(v.backend)));
        // Every case of the variant reads its model: refused here, at start-up, rather than case by case.
        if (!v.model && !v.input_model)
            throw std::logic_error("variant '" + family_name + "/" + v.name + "' (" +
                                   std::string(to_string(v.backend)) +
                                   ") has no model: set Variant::model or input_model");
        f.variants.push_back(std::move(v));
        return;
    }
    throw std::logic_error("no family '" + family_name + "' to add variant '" + v.name + "' to");
}

const Family& Catalogue::family(const std::string& name) const {
    std::string known;
    for (const auto& f : families_) {
        if (f.name == name) return f;
        known += (known.empty() ? "" : ", ") + f.name;
    }
    throw UsageError("unknown family '" + name + "' (families: " + known + ")");
}

const Variant& Catalogue::variant(const std::string& family_name, const std::string& variant, Backend b) const {
    const Family& f = family(family_name);
    if (const Variant* v = f.find(variant, b)) return *v;
    std::string known;
    for (const auto& v : f.variants)
        if (v.backend == b) known += (known.empty() ? "" : ", ") + v.name;
    throw UsageError("unknown variant '" + variant + "' of " + family_name + " on backend " +
                     std::string(to_string(b)) +
                     (known.empty() ? " (none on this backend)" : " (variants: " + known + ")"));
}

}  // namespace memwall

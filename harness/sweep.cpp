#include "harness/sweep.hpp"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/text_json.hpp"
#include "harness/interrupt.hpp"
#include "harness/shard.hpp"

namespace memwall {

nlohmann::json SweepSpec::to_json() const {
    nlohmann::json b = nlohmann::json::array();
    for (Backend x : backends) b.push_back(std::string(to_string(x)));
    nlohmann::json axes = nlohmann::json::array();
    for (const std::string& o : overrides) axes.push_back(text_to_json(o));  // matrix=PATH: any bytes
    nlohmann::json j = {
        {"families", families}, {"variants", variants}, {"backends", b}, {"axes", axes},
        {"zips", zips},         {"unzip", unzip},       {"seed", seed},  {"sampler", sampler.to_json()}};
    if (shard.count > 1) j["shard"] = {{"index", shard.index}, {"count", shard.count}};
    return j;
}

SweepSpec SweepSpec::from_json(const nlohmann::json& j) {
    SweepSpec s;
    try {
        s.families = j.at("families").get<std::vector<std::string>>();
        s.variants = j.at("variants").get<std::vector<std::string>>();
        s.backends.clear();
        for (const auto& name : j.at("backends").get<std::vector<std::string>>()) {
            auto b = backend_from(name);
            if (!b) throw InputError("stored sweep names an unknown backend '" + name + "'");
            s.backends.push_back(*b);
        }
        for (const auto& o : j.at("axes")) {
            auto text = text_from_json(o);
            if (!text) throw InputError("stored sweep has an axis that is not text: " + o.dump());
            s.overrides.push_back(std::move(*text));
        }
        s.zips = j.at("zips").get<std::vector<std::vector<std::string>>>();
        s.unzip = j.at("unzip").get<bool>();
        s.seed = j.at("seed").get<std::uint64_t>();
        s.sampler = SamplerSettings::from_json(j.at("sampler"));
        if (j.contains("shard")) {
            s.shard = {j.at("shard").at("index").get<std::size_t>(), j.at("shard").at("count").get<std::size_t>()};
            if (s.shard.count == 0 || s.shard.index >= s.shard.count)
                throw InputError("stored sweep has an impossible shard " + to_string(s.shard));
        }
    } catch (const nlohmann::json::exception& e) {
        throw InputError(std::string("stored sweep is malformed: ") + e.what());
    }
    return s;
}

std::string PlannedCase::name() const {
    std::string n =
        family->name + "/" + variant->name + "/" + std::string(to_string(variant->backend)) + "/" + problem.label();
    if (!config.empty()) n += "/" + config.label();
    return n;
}

namespace {

bool selected(const std::vector<std::string>& filter, const std::string& name) {
    return filter.empty() || std::find(filter.begin(), filter.end(), name) != filter.end();
}

}  // namespace

SweepPlan::SweepPlan(const SweepSpec& spec, const Catalogue& cat) {
    for (const auto& name : spec.families) cat.family(name);  // unknown family -> UsageError
    for (Backend b : spec.backends) {
        BackendStatus st = probe_backend(b);
        if (!st.available)
            throw UsageError("backend " + std::string(to_string(b)) + " is not available here: " + st.reason);
    }
    for (const auto& v : spec.variants) {
        bool found = false;
        for (const auto& f : cat.families())
            if (selected(spec.families, f.name))
                for (const auto& var : f.variants) found = found || var.name == v;
        if (!found) throw UsageError("unknown variant '" + v + "' in the selected families");
    }

    std::vector<bool> override_used(spec.overrides.size(), false);
    for (const auto& f : cat.families()) {
        if (!selected(spec.families, f.name)) continue;
        for (const auto& v : f.variants) {
            if (!selected(spec.variants, v.name)) continue;
            if (std::find(spec.backends.begin(), spec.backends.end(), v.backend) == spec.backends.end()) continue;
            Space space = f.space(v);
            for (const auto& d : v.default_axes) space.apply_override(d);
            if (spec.unzip) space.clear_zips();
            for (std::size_t i = 0; i < spec.overrides.size(); ++i) {
                auto [name, text] = split_override(spec.overrides[i]);
                if (!space.find(name)) continue;  // an axis of another variant
                space.apply_override(spec.overrides[i]);
                override_used[i] = true;
            }
            for (const auto& o : spec.overrides)
                if (const std::string name = split_override(o).first; space.find(name)) space.check_not_shadowed(name);
            for (const auto& z : spec.zips) {
                bool all = std::all_of(z.begin(), z.end(), [&](const auto& n) { return space.find(n) != nullptr; });
                if (all) space.zip(z);
            }
            std::size_t n = 0;
            for (Space::Cursor cursor(space); cursor.next(); ++n) throw_if_interrupted("planning the sweep");
            if (n == 0) continue;
            size_ += n;
            members_.push_back({&f, &v, std::move(space)});
        }
    }
    for (std::size_t i = 0; i < spec.overrides.size(); ++i) {
        if (override_used[i]) continue;
        auto [name, text] = split_override(spec.overrides[i]);
        throw UsageError("unknown axis '" + name + "' (see `memwall list` for the axes of each family)");
    }
    if (size_ == 0) throw UsageError("the sweep is empty: no variant matches, or constraints removed every point");
    if (spec.shard.count > 1) {
        if (spec.shard.index >= spec.shard.count) throw UsageError("impossible shard " + to_string(spec.shard));
        if (spec.shard.count > size_)
            throw UsageError("--shard " + to_string(spec.shard) + ": the sweep has only " + std::to_string(size_) +
                             " case(s), fewer than its shards");
        std::vector<double> costs;
        costs.reserve(size_);
        Pass whole = pass();
        for (auto batch = whole.next(); !batch.empty(); batch = whole.next()) {
            throw_if_interrupted("planning the sweep");
            for (const PlannedCase& c : batch) costs.push_back(predicted_cost(c, spec.sampler));
        }
        const std::vector<std::size_t> shard_of = assign_shards(costs, spec.shard.count);
        mine_.resize(shard_of.size());
        for (std::size_t i = 0; i < shard_of.size(); ++i) mine_[i] = shard_of[i] == spec.shard.index;
        size_ = static_cast<std::size_t>(std::count(mine_.begin(), mine_.end(), true));
    }
}

std::vector<PlannedCase> SweepPlan::Pass::next() {
    for (auto batch = next_of_whole(); !batch.empty(); batch = next_of_whole()) {
        if (plan_->mine_.empty()) return batch;
        std::vector<PlannedCase> mine;
        for (PlannedCase& c : batch)
            if (plan_->mine_[at_++]) mine.push_back(std::move(c));
        if (!mine.empty()) return mine;
    }
    return {};
}

std::vector<PlannedCase> SweepPlan::Pass::next_of_whole() {
    const auto& members = plan_->members_;
    while (first_ < members.size()) {
        if (cursors_.empty()) {  // the next family's variants
            for (end_ = first_; end_ < members.size() && members[end_].family == members[first_].family; ++end_)
                cursors_.emplace_back(members[end_].space);
            held_.assign(cursors_.size(), std::nullopt);
        }
        std::map<std::string, std::size_t> order;  // a problem's canonical form -> its first appearance
        std::vector<std::pair<std::size_t, PlannedCase>> batch;
        for (std::size_t k = 0; k < cursors_.size(); ++k) {
            const Member& m = members[first_ + k];
            std::size_t problems = 0;
            std::string last;
            for (;;) {
                std::optional<Params> p = held_[k] ? std::move(held_[k]) : cursors_[k].next();
                held_[k].reset();
                if (!p) break;
                PlannedCase c{m.family, m.variant, m.space.project(*p, AxisRole::problem),
                              m.space.project(*p, AxisRole::tunable)};
                std::string problem = c.problem.canonical();
                if (problem != last) {  // a variant's points of one problem are adjacent (Space::Cursor)
                    if (problems == kBatchProblems) {
                        held_[k] = std::move(p);
                        break;
                    }
                    ++problems;
                    last = problem;
                }
                const auto it = order.emplace(std::move(problem), order.size()).first;
                batch.emplace_back(it->second, std::move(c));
            }
        }
        if (!batch.empty()) {
            std::stable_sort(batch.begin(), batch.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
            std::vector<PlannedCase> out;
            out.reserve(batch.size());
            for (auto& [at, c] : batch) out.push_back(std::move(c));
            return out;
        }
        first_ = end_;
        cursors_.clear();
    }
    return {};
}

std::vector<PlannedCase> expand_sweep(const SweepSpec& spec, const Catalogue& cat) {
    const SweepPlan plan(spec, cat);
    std::vector<PlannedCase> out;
    SweepPlan::Pass pass = plan.pass();
    for (auto batch = pass.next(); !batch.empty(); batch = pass.next())
        out.insert(out.end(), std::make_move_iterator(batch.begin()), std::make_move_iterator(batch.end()));
    return out;
}

}  // namespace memwall

#include "tuner/strategies/device_prior.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/errors.hpp"
#include "tuner/additive_model.hpp"

namespace memwall {

namespace {

// 8 and 8.0 are the same value: recordings write numbers either way.
bool same_value(const Value& a, const Value& b) {
    const auto number = [](const Value& v) -> std::optional<double> {
        if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
        if (const auto* d = std::get_if<double>(&v)) return *d;
        return std::nullopt;
    };
    const auto x = number(a), y = number(b);
    if (x && y) return *x == *y;
    return a == b;
}

std::string names_of(const TuningSpace& s) {
    std::string out;
    for (const auto& p : s.parameters()) out += (out.empty() ? "" : ",") + p.name;
    return out;
}

}  // namespace

std::size_t DevicePrior::count(Source s) const {
    return static_cast<std::size_t>(std::count(source.begin(), source.end(), s));
}

DevicePrior device_prior_from(const RecordedSpace& other, const TuningSpace& target) {
    const auto& tp = target.parameters();
    const auto& op = other.space.parameters();
    // position[p]: where the target's parameter p is in the other's; value_map[p][v]: the other's
    // index of the target's value v, or -1.
    std::vector<std::size_t> position;
    std::vector<std::vector<int>> value_map;
    bool same_names = tp.size() == op.size();
    for (const Parameter& p : tp) {
        const auto it = std::find_if(op.begin(), op.end(), [&](const Parameter& q) { return q.name == p.name; });
        if (it == op.end()) {
            same_names = false;
            break;
        }
        position.push_back(static_cast<std::size_t>(it - op.begin()));
        std::vector<int> map;
        for (const Value& v : p.values) {
            const auto w =
                std::find_if(it->values.begin(), it->values.end(), [&](const Value& u) { return same_value(u, v); });
            map.push_back(w == it->values.end() ? -1 : static_cast<int>(w - it->values.begin()));
        }
        value_map.push_back(std::move(map));
    }
    if (!same_names)
        throw InputError(other.origin + ": a prior must tune the same parameters as the target (" +
                         names_of(other.space) + " against " + names_of(target) + ")");

    // The other's configurations in the target's value indices, where all their values exist there.
    std::vector<std::optional<Config>> in_target(other.space.size());
    {
        std::vector<std::vector<int>> back(tp.size());  // the other's value index -> the target's
        for (std::size_t p = 0; p < tp.size(); ++p) {
            back[p].assign(op[position[p]].values.size(), -1);
            for (std::size_t v = 0; v < value_map[p].size(); ++v)
                if (value_map[p][v] >= 0) back[p][static_cast<std::size_t>(value_map[p][v])] = static_cast<int>(v);
        }
        for (std::size_t id = 0; id < other.space.size(); ++id) {
            Config c(tp.size());
            bool all = true;
            for (std::size_t p = 0; p < tp.size() && all; ++p) {
                const int v = back[p][other.space.config(id)[position[p]]];
                all = v >= 0;
                c[p] = static_cast<std::uint16_t>(std::max(v, 0));
            }
            if (all) in_target[id] = std::move(c);
        }
    }

    // Main effects of the other's recorded times, for what it did not record.
    AdditiveModel effects(target.levels());
    std::vector<const Config*> rows;
    std::vector<double> y;
    for (std::size_t id = 0; id < other.space.size(); ++id)
        if (in_target[id] && other.results[id].ok() && other.results[id].seconds > 0) {
            rows.push_back(&*in_target[id]);
            y.push_back(std::log(other.results[id].seconds));
        }
    if (rows.empty())
        throw InputError(other.origin + ": the prior recorded no successful configuration of the target's space");
    effects.fit(rows, y);

    DevicePrior prior;
    prior.device = other.device;
    prior.origin = other.origin;
    prior.log_seconds.resize(target.size());
    prior.source.assign(target.size(), DevicePrior::Source::estimated);
    for (std::size_t id = 0; id < target.size(); ++id) prior.log_seconds[id] = effects.predict(target.config(id));
    for (std::size_t id = 0; id < other.space.size(); ++id) {
        if (!in_target[id]) continue;
        const auto t = target.find(*in_target[id]);
        if (!t) continue;
        const Evaluation& e = other.results[id];
        if (e.ok() && e.seconds > 0) {
            prior.log_seconds[*t] = std::log(e.seconds);
            prior.source[*t] = DevicePrior::Source::recorded;
        } else if (!e.ok()) {
            prior.source[*t] = DevicePrior::Source::failed;
        }
    }
    return prior;
}

}  // namespace memwall

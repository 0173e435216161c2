#include "tuner/tuning_space.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_set>

#include "core/errors.hpp"

namespace memwall {

std::size_t ConfigHash::operator()(const Config& c) const noexcept {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the indices
    for (std::uint16_t v : c) {
        h ^= v;
        h *= 1099511628211ull;
    }
    return static_cast<std::size_t>(h);
}

TuningSpace::TuningSpace(std::vector<Parameter> parameters, std::vector<Config> configs)
    : parameters_(std::move(parameters)), configs_(std::move(configs)) {
    const std::size_t d = parameters_.size();
    index_.reserve(configs_.size());
    for (std::size_t i = 0; i < configs_.size(); ++i) {
        const Config& c = configs_[i];
        if (c.size() != d) throw std::invalid_argument("configuration with the wrong number of parameters");
        for (std::size_t p = 0; p < d; ++p)
            if (c[p] >= parameters_[p].values.size())
                throw std::invalid_argument("value index out of range for parameter '" + parameters_[p].name + "'");
        if (!index_.emplace(c, static_cast<std::uint32_t>(i)).second)
            throw std::invalid_argument("duplicate configuration " + label(i));
    }
    // Lines: group configurations by their values on every parameter but p.
    lines_.resize(d);
    line_of_.assign(d, std::vector<std::uint32_t>(configs_.size()));
    for (std::size_t p = 0; p < d; ++p) {
        std::unordered_map<Config, std::uint32_t, ConfigHash> group;
        for (std::size_t i = 0; i < configs_.size(); ++i) {
            Config key = configs_[i];
            key[p] = 0;
            auto [it, added] = group.emplace(std::move(key), static_cast<std::uint32_t>(lines_[p].size()));
            if (added) lines_[p].emplace_back();
            lines_[p][it->second].push_back(static_cast<std::uint32_t>(i));
            line_of_[p][i] = it->second;
        }
        for (auto& l : lines_[p])
            std::sort(l.begin(), l.end(),
                      [&](std::uint32_t a, std::uint32_t b) { return configs_[a][p] < configs_[b][p]; });
    }
}

std::optional<std::size_t> TuningSpace::find(const Config& c) const {
    auto it = index_.find(c);
    if (it == index_.end()) return std::nullopt;
    return it->second;
}

Params TuningSpace::params(std::size_t id) const {
    Params out;
    for (std::size_t p = 0; p < parameters_.size(); ++p)
        out.set(parameters_[p].name, parameters_[p].values[configs_[id][p]]);
    return out;
}

std::string TuningSpace::label(std::size_t id) const {
    std::string s;
    for (std::size_t p = 0; p < parameters_.size(); ++p) {
        if (p) s += ',';
        s += parameters_[p].name + '=' + to_string(parameters_[p].values[configs_[id][p]]);
    }
    return s;
}

std::vector<std::size_t> TuningSpace::levels() const {
    std::vector<std::size_t> l;
    for (const auto& p : parameters_) l.push_back(p.values.size());
    return l;
}

std::span<const std::uint32_t> TuningSpace::line(std::size_t id, std::size_t p) const {
    return lines_[p][line_of_[p][id]];
}

std::size_t TuningSpace::varying() const {
    return static_cast<std::size_t>(
        std::count_if(parameters_.begin(), parameters_.end(), [](const Parameter& p) { return p.values.size() > 1; }));
}

int TuningSpace::hamming(const Config& a, const Config& b) {
    int d = 0;
    for (std::size_t p = 0; p < a.size(); ++p) d += a[p] != b[p];
    return d;
}

TuningSpace tuning_space_from(const Space& space) {
    std::vector<Parameter> parameters;
    for (const Axis& a : space.axes()) {
        const auto& values = space.values(a.name);
        if (a.role == AxisRole::tunable) {
            parameters.push_back({a.name, values});
        } else if (values.size() != 1) {
            throw UsageError("problem axis '" + a.name + "' has " + std::to_string(values.size()) +
                             " values; fix it to one value to tune");
        }
    }
    if (parameters.empty()) throw UsageError("the space has no tunable axis");
    std::vector<Config> configs;
    std::unordered_set<Config, ConfigHash> seen;  // a value listed twice gives one configuration
    for (const Params& point : space.points()) {
        Config c(parameters.size());
        for (std::size_t p = 0; p < parameters.size(); ++p) {
            const auto& vs = parameters[p].values;
            c[p] =
                static_cast<std::uint16_t>(std::find(vs.begin(), vs.end(), point.at(parameters[p].name)) - vs.begin());
        }
        if (seen.insert(c).second) configs.push_back(std::move(c));
    }
    if (configs.empty()) throw UsageError("no point of the space satisfies its constraints");
    return TuningSpace(std::move(parameters), std::move(configs));
}

}  // namespace memwall

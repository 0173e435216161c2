// The space a strategy searches: parameters with ordered value lists, and the valid
// configurations, each a vector of value indices. Built from a recorded space (its recorded
// configurations) or from a core Space (its tunable axes and constraints), so strategies
// need one neighbourhood notion for both: Hamming distance on value indices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/params.hpp"
#include "core/space.hpp"

namespace memwall {

struct Parameter {
    std::string name;
    std::vector<Value> values;  // ordered: adjacent indices are neighbouring values
};

// One value index per parameter.
using Config = std::vector<std::uint16_t>;

struct ConfigHash {
    std::size_t operator()(const Config& c) const noexcept;
};

class TuningSpace {
  public:
    TuningSpace() = default;
    // Throws std::invalid_argument on an index out of range, a wrong length or a duplicate.
    TuningSpace(std::vector<Parameter> parameters, std::vector<Config> configs);

    const std::vector<Parameter>& parameters() const { return parameters_; }
    std::size_t size() const { return configs_.size(); }
    const Config& config(std::size_t id) const { return configs_[id]; }
    // The number of values of each parameter, in parameter order (what models over configurations size by).
    std::vector<std::size_t> levels() const;
    // The parameters with more than one value: those a search can change.
    std::size_t varying() const;
    std::optional<std::size_t> find(const Config& c) const;

    Params params(std::size_t id) const;
    // "a=1,b=2" in parameter order.
    std::string label(std::size_t id) const;

    // The configurations equal to `id` in every parameter but `p` (id included), ordered by
    // p's value index: the Hamming-1 neighbours along one parameter.
    std::span<const std::uint32_t> line(std::size_t id, std::size_t p) const;

    static int hamming(const Config& a, const Config& b);

  private:
    std::vector<Parameter> parameters_;
    std::vector<Config> configs_;
    std::unordered_map<Config, std::uint32_t, ConfigHash> index_;
    // lines_[p][line_of_[p][id]]: the line through id along p.
    std::vector<std::vector<std::vector<std::uint32_t>>> lines_;
    std::vector<std::vector<std::uint32_t>> line_of_;
};

// The tunable axes of `space` and its constrained points. Problem axes must hold one value
// each (the tuner tunes one problem at a time); throws UsageError otherwise, or when the
// space has no tunable axis or no valid point.
TuningSpace tuning_space_from(const Space& space);

}  // namespace memwall

#include <algorithm>
#include <vector>

#include "tuner/strategies/strategies.hpp"

namespace memwall::search {

std::optional<std::size_t> random_unevaluated(const History& h, Rng& rng) {
    const std::size_t n = h.space().size();
    if (h.evaluations() >= n) return std::nullopt;
    std::uniform_int_distribution<std::size_t> pick(0, n - 1);
    // Rejection is fast while most of the space is unevaluated; fall back to a scan.
    for (int tries = 0; tries < 64; ++tries) {
        const std::size_t c = pick(rng);
        if (!h.evaluated(c)) return c;
    }
    std::vector<std::size_t> left;
    for (std::size_t c = 0; c < n; ++c)
        if (!h.evaluated(c)) left.push_back(c);
    return left[std::uniform_int_distribution<std::size_t>(0, left.size() - 1)(rng)];
}

std::optional<std::size_t> random_neighbour(const TuningSpace& space, std::size_t config, Rng& rng) {
    std::vector<std::size_t> movable;
    for (std::size_t p = 0; p < space.parameters().size(); ++p)
        if (space.line(config, p).size() > 1) movable.push_back(p);
    if (movable.empty()) return std::nullopt;
    const std::size_t p = movable[std::uniform_int_distribution<std::size_t>(0, movable.size() - 1)(rng)];
    const auto line = space.line(config, p);
    const auto self = static_cast<std::size_t>(std::find(line.begin(), line.end(), config) - line.begin());
    std::size_t other;
    if (std::bernoulli_distribution(0.5)(rng)) {
        // adjacent along the line (the line is ordered by value index)
        if (self == 0)
            other = 1;
        else if (self + 1 == line.size())
            other = self - 1;
        else
            other = std::bernoulli_distribution(0.5)(rng) ? self + 1 : self - 1;
    } else {
        other = std::uniform_int_distribution<std::size_t>(0, line.size() - 2)(rng);
        if (other >= self) ++other;
    }
    return line[other];
}

}  // namespace memwall::search

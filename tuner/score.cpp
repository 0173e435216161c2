#include "tuner/score.hpp"

#include <algorithm>
#include <stdexcept>

namespace memwall {

std::vector<double> best_so_far(const Trace& trace, std::size_t length, double worst) {
    std::vector<double> out;
    out.reserve(length);
    double best = worst;
    for (std::size_t t = 0; t < length; ++t) {
        if (t < trace.entries.size()) best = std::min(best, trace.entries[t].best_seconds);
        out.push_back(best);
    }
    return out;
}

double willemsen_score(std::span<const double> best, const RandomBaseline& baseline) {
    if (best.empty() || best.size() > baseline.size())
        throw std::invalid_argument("score over an empty or too long curve");
    const std::vector<double> random = baseline.curve(best.size());
    const double opt = baseline.optimum();
    double sum = 0;
    for (std::size_t t = 0; t < best.size(); ++t) {
        const double gap = opt - random[t];
        // Where random search is already at the optimum every strategy ties it at best.
        sum += gap < 0 ? (best[t] - random[t]) / gap : 1.0;
    }
    return sum / static_cast<double>(best.size());
}

}  // namespace memwall

// kv_offload's selection=topk: the pages Double Sparsity's approximate scores over a label cache
// rank highest (Double Sparsity-Offload keeps the label cache near the compute and fetches the
// selected tokens' K and V from the slow tier), and the locality of consecutive steps' pages.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <numeric>

#include "kernels/kv_offload/kv_offload.hpp"

namespace memwall {

namespace {

// The k largest of x (a tie to the lower index), ascending.
std::vector<std::int64_t> largest(const std::vector<double>& x, std::int64_t k) {
    std::vector<std::int64_t> idx(x.size());
    std::iota(idx.begin(), idx.end(), 0);
    const auto before = [&x](std::int64_t a, std::int64_t b) {
        const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
        return x[ua] > x[ub] || (x[ua] == x[ub] && a < b);
    };
    std::nth_element(idx.begin(), idx.begin() + k - 1, idx.end(), before);
    idx.resize(static_cast<std::size_t>(k));
    std::sort(idx.begin(), idx.end());
    return idx;
}

}  // namespace

std::vector<std::vector<std::int64_t>> kv_topk_selections(const KvProblem& p, const float* kv, const float* q) {
    const std::int64_t d = p.head_dim, t = p.page_tokens, r = p.label_channels;
    auto key = [&](std::int64_t page, std::int64_t h, std::int64_t token) {
        return kv + static_cast<std::size_t>(page) * p.page_floats() + p.k_offset(h) +
               static_cast<std::size_t>(token * d);
    };
    // Calibration: per head, the channels of largest mean |K| (their sum's order).
    std::vector<std::vector<std::int64_t>> channels;
    for (std::int64_t h = 0; h < p.heads; ++h) {
        std::vector<double> mass(static_cast<std::size_t>(d), 0.0);
        for (std::int64_t page = 0; page < p.pages(); ++page)
            for (std::int64_t j = 0; j < t; ++j)
                for (std::int64_t c = 0; c < d; ++c) mass[static_cast<std::size_t>(c)] += std::fabs(key(page, h, j)[c]);
        channels.push_back(largest(mass, r));
    }
    std::vector<std::vector<std::int64_t>> out;
    std::vector<double> score(static_cast<std::size_t>(p.pages()));
    for (std::int64_t s = 0; s < p.steps; ++s) {
        for (std::int64_t page = 0; page < p.pages(); ++page) {
            double sum = 0;
            for (std::int64_t h = 0; h < p.heads; ++h) {
                const float* qh = q + static_cast<std::size_t>((s * p.heads + h) * d);
                double best = -std::numeric_limits<double>::infinity();
                for (std::int64_t j = 0; j < t; ++j) {
                    double dot = 0;
                    for (const std::int64_t c : channels[static_cast<std::size_t>(h)])
                        dot += static_cast<double>(qh[c]) * key(page, h, j)[c];
                    best = std::max(best, dot);
                }
                sum += best;
            }
            score[static_cast<std::size_t>(page)] = sum;
        }
        out.push_back(largest(score, p.selected()));
    }
    return out;
}

double selection_reuse(const std::vector<std::vector<std::int64_t>>& selections) {
    if (selections.size() < 2) return 0;
    double sum = 0;
    for (std::size_t s = 1; s < selections.size(); ++s) {
        std::vector<std::int64_t> both;
        std::set_intersection(selections[s].begin(), selections[s].end(), selections[s - 1].begin(),
                              selections[s - 1].end(), std::back_inserter(both));
        sum += static_cast<double>(both.size()) / static_cast<double>(selections[s].size());
    }
    return sum / static_cast<double>(selections.size() - 1);
}

Counter reuse_counter(const std::vector<std::vector<std::int64_t>>& selections) {
    return {"reuse", selection_reuse(selections), "", CounterSource::model};
}

}  // namespace memwall

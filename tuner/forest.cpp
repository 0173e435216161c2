#include "tuner/forest.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace memwall {

Forest::Forest(std::vector<std::size_t> levels, ForestOptions options) : levels_(std::move(levels)), options_(options) {
    for (std::size_t p = 0; p < levels_.size(); ++p)
        if (levels_[p] > 1) splittable_.push_back(p);
    const std::size_t most = levels_.empty() ? 0 : *std::max_element(levels_.begin(), levels_.end());
    sum_.resize(most);
    count_.resize(most);
}

void Forest::fit(std::span<const Config* const> rows, std::span<const double> targets, std::mt19937_64& rng) {
    rows_ = rows;
    targets_ = targets;
    trees_.assign(static_cast<std::size_t>(options_.trees), Tree{});
    if (rows.empty()) return;
    std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(rows.size() - 1));
    std::vector<std::uint32_t> idx(rows.size());
    for (Tree& tree : trees_) {
        for (auto& i : idx) i = pick(rng);
        tree.reserve(2 * rows.size());
        grow(tree, idx, 0, rng);
    }
}

std::int32_t Forest::grow(Tree& tree, std::span<std::uint32_t> idx, int depth, std::mt19937_64& rng) {
    const auto self = static_cast<std::int32_t>(tree.size());
    tree.emplace_back();
    double total = 0;
    for (std::uint32_t i : idx) total += targets_[i];
    const double n = static_cast<double>(idx.size());
    tree[self].value = total / n;
    if (depth >= options_.max_depth || idx.size() < options_.min_split || splittable_.empty()) return self;

    // Try a random subset of the parameters; keep the split that most reduces squared error
    // (equivalently, maximises sum_L^2/n_L + sum_R^2/n_R).
    std::vector<std::size_t> features = splittable_;
    std::shuffle(features.begin(), features.end(), rng);
    const auto tried = std::max<std::size_t>(
        1, static_cast<std::size_t>(std::ceil(options_.feature_fraction * static_cast<double>(features.size()))));
    double best_gain = 1e-12 * std::max(1.0, std::abs(total));
    int best_feature = -1;
    std::uint16_t best_threshold = 0;
    const double base = total * total / n;
    for (std::size_t f = 0; f < tried; ++f) {
        const std::size_t p = features[f];
        const std::size_t levels = levels_[p];
        std::fill(sum_.begin(), sum_.begin() + static_cast<std::ptrdiff_t>(levels), 0.0);
        std::fill(count_.begin(), count_.begin() + static_cast<std::ptrdiff_t>(levels), 0);
        for (std::uint32_t i : idx) {
            const std::uint16_t v = (*rows_[i])[p];
            sum_[v] += targets_[i];
            ++count_[v];
        }
        double left_sum = 0;
        std::size_t left_n = 0;
        for (std::size_t v = 0; v + 1 < levels; ++v) {
            left_sum += sum_[v];
            left_n += count_[v];
            if (count_[v] == 0 || left_n == 0 || left_n == idx.size()) continue;
            const double right_sum = total - left_sum;
            const double right_n = n - static_cast<double>(left_n);
            const double gain =
                left_sum * left_sum / static_cast<double>(left_n) + right_sum * right_sum / right_n - base;
            if (gain > best_gain) {
                best_gain = gain;
                best_feature = static_cast<int>(p);
                best_threshold = static_cast<std::uint16_t>(v);
            }
        }
    }
    if (best_feature < 0) return self;
    const auto p = static_cast<std::size_t>(best_feature);
    auto mid =
        std::partition(idx.begin(), idx.end(), [&](std::uint32_t i) { return (*rows_[i])[p] <= best_threshold; });
    const auto split = static_cast<std::size_t>(mid - idx.begin());
    const std::int32_t left = grow(tree, idx.subspan(0, split), depth + 1, rng);
    const std::int32_t right = grow(tree, idx.subspan(split), depth + 1, rng);
    tree[self].feature = static_cast<std::uint16_t>(p);
    tree[self].threshold = best_threshold;
    tree[self].left = left;
    tree[self].right = right;
    return self;
}

Prediction Forest::predict(const Config& c) const {
    double sum = 0, sumsq = 0;
    for (const Tree& tree : trees_) {
        std::int32_t at = 0;
        while (tree[static_cast<std::size_t>(at)].left >= 0) {
            const Node& node = tree[static_cast<std::size_t>(at)];
            at = c[node.feature] <= node.threshold ? node.left : node.right;
        }
        const double v = tree[static_cast<std::size_t>(at)].value;
        sum += v;
        sumsq += v * v;
    }
    const double k = static_cast<double>(trees_.size());
    const double mean = sum / k;
    return {mean, std::sqrt(std::max(0.0, sumsq / k - mean * mean))};
}

}  // namespace memwall

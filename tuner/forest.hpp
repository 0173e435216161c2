// A small random forest for regression over configurations: trees split on "value index of
// parameter p <= k", so ordered parameters split where their values change behaviour; the
// spread between trees says how sure the forest is. Fitting is histogram-based (parameters have
// few values), so refitting after every few evaluations stays cheap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "tuner/tuning_space.hpp"

namespace memwall {

struct ForestOptions {
    int trees = 24;
    int max_depth = 14;
    std::size_t min_split = 2;      // rows a node needs to be split
    double feature_fraction = 0.7;  // of the parameters tried at each split
};

struct Prediction {
    double mean = 0;
    double sd = 0;  // across trees
};

class Forest {
  public:
    // `levels[p]`: number of values of parameter p.
    explicit Forest(std::vector<std::size_t> levels, ForestOptions options = {});

    // Fits on rows (configurations) and targets; each tree sees a bootstrap sample.
    void fit(std::span<const Config* const> rows, std::span<const double> targets, std::mt19937_64& rng);
    bool fitted() const { return !trees_.empty(); }
    Prediction predict(const Config& c) const;

  private:
    struct Node {
        std::int32_t left = -1, right = -1;        // children; -1 for a leaf
        std::uint16_t feature = 0, threshold = 0;  // go left when c[feature] <= threshold
        double value = 0;
    };
    using Tree = std::vector<Node>;

    std::int32_t grow(Tree& tree, std::span<std::uint32_t> idx, int depth, std::mt19937_64& rng);

    std::vector<std::size_t> levels_;
    std::vector<std::size_t> splittable_;  // parameters with more than one value
    ForestOptions options_;
    std::vector<Tree> trees_;
    // Fit-time scratch.
    std::span<const Config* const> rows_;
    std::span<const double> targets_;
    std::vector<double> sum_;
    std::vector<std::size_t> count_;
};

}  // namespace memwall

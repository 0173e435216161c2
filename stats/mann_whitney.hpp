// The Mann–Whitney U test (Wilcoxon rank-sum), two-sided: does one sample tend to hold larger
// values than the other?
#pragma once

#include <cstddef>
#include <span>

namespace memwall {

struct RankTest {
    double u = 0;        // U of the first sample: pairs (x, y) with x > y, ties counting 1/2
    double p = 1;        // two-sided p-value
    bool exact = false;  // from the exact null distribution, else the normal approximation
};

// Exact p-values (the null distribution of U counted over all rank arrangements) when both
// samples have fewer than `exact_below` values and there are no ties, as R's wilcox.test does;
// otherwise the normal approximation with the tie correction of the variance and a continuity
// correction. Empty samples, or all values tied, give p = 1.
RankTest mann_whitney(std::span<const double> x, std::span<const double> y, std::size_t exact_below = 50);

}  // namespace memwall

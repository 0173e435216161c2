// The Wilcoxon signed-rank test, two-sided: are paired differences centred on zero? The test of
// a comparison whose two runs were measured together, repetition beside repetition.
#pragma once

#include <cstddef>
#include <span>

namespace memwall {

struct SignedRankTest {
    double v = 0;        // sum of the ranks of |d| over the positive differences d
    std::size_t n = 0;   // differences used (zeros are dropped)
    double p = 1;        // two-sided p-value
    bool exact = false;  // from the exact null distribution, else the normal approximation
};

// As R's wilcox.test(paired = TRUE): zero differences are dropped; exact p-values (the null
// distribution of V counted over all 2^n sign assignments) when fewer than `exact_below`
// differences remain and neither zeros nor ties occurred; otherwise the normal approximation
// with the tie correction of the variance and a continuity correction. No differences, or all
// of them zero, give p = 1.
SignedRankTest signed_rank(std::span<const double> differences, std::size_t exact_below = 50);

}  // namespace memwall

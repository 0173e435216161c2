// The CPU decode variants: decode_splitkv against the float64 reference for every split count,
// and topk_sparse's calibration, selection rule, check, error counter, validation and KV bytes,
// on each ISA this host runs.
#include "kernels/attention/decode.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "core/errors.hpp"

namespace memwall {
namespace {

std::vector<Isa> isas() {
    std::vector<Isa> out{Isa::avx2};
    if (host_isa() == Isa::avx512) out.push_back(Isa::avx512);
    return out;
}

AttentionProblem decode_problem(std::int64_t seq_k, std::int64_t d, std::int64_t outliers = 0) {
    AttentionProblem p;
    p.batch = 2;
    p.heads = 3;
    p.seq_q = 1;
    p.seq_k = seq_k;
    p.head_dim = d;
    p.outliers = outliers;
    return p;
}

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

TEST(CpuDecodeSplitkv, MatchesTheReferenceForEverySplitCount) {
    for (const Isa isa : isas())
        for (const std::int64_t d : {64, 128})
            for (const std::int64_t n : {1, 77, 1000})
                for (const int splits : {1, 3, 8, 77}) {
                    if (splits > n) continue;
                    const AttentionWorkload w(decode_problem(n, d), 3);
                    const AttentionProblem& p = w.problem();
                    std::vector<float> o(p.q_size(), kNan), work(decode_splitkv_workspace_floats(p, splits), kNan);
                    if (isa == Isa::avx512)
                        attention_decode_splitkv<Isa::avx512>(p, splits, w.q().data(), w.k().data(), w.v().data(),
                                                              o.data(), work.data());
                    else
                        attention_decode_splitkv<Isa::avx2>(p, splits, w.q().data(), w.k().data(), w.v().data(),
                                                            o.data(), work.data());
                    const Check c = w.check(o.data());
                    EXPECT_TRUE(c.ok) << isa_name(isa) << " d=" << d << " n=" << n << " splits=" << splits << ": "
                                      << c.message;
                }
}

struct TopkRun {
    std::vector<std::int32_t> channels;
    std::vector<float> out;
    std::vector<std::int32_t> selected;
};

TopkRun run_topk(const AttentionWorkload& w, const TopkSizes& t, Isa isa,
                 const std::vector<float>* label_override = nullptr) {
    const AttentionProblem& p = w.problem();
    TopkRun r;
    r.channels = topk_calibrate(p, w.k().data(), t.channels);
    const std::vector<float> label =
        label_override ? *label_override : topk_label_cache(p, w.k().data(), r.channels, t.channels);
    r.out.assign(topk_output_floats(p), kNan);
    r.selected.assign(static_cast<std::size_t>(p.heads_total() * t.tokens), -1);
    const auto args = std::make_tuple(p, t, w.q().data(), w.k().data(), w.v().data(), label.data(), r.channels.data(),
                                      r.out.data(), r.selected.data());
    if (isa == Isa::avx512)
        std::apply(attention_topk_sparse<Isa::avx512>, args);
    else
        std::apply(attention_topk_sparse<Isa::avx2>, args);
    return r;
}

TEST(CpuTopkSparse, PassesItsCheckForEveryK) {
    for (const Isa isa : isas())
        for (const std::int64_t n : {50, 1000})
            for (const std::int64_t k : {std::int64_t{1}, std::int64_t{7}, n / 16 + 1, n}) {
                const AttentionWorkload w(decode_problem(n, 64, 2), 5);
                const TopkSizes t{16, k};
                const TopkRun r = run_topk(w, t, isa);
                const Check c = topk_check(w, r.channels, t, r.out.data());
                EXPECT_TRUE(c.ok) << isa_name(isa) << " n=" << n << " k=" << k << ": " << c.message;
                // The kernel's own selection is the reference rule's, from its scores.
                for (std::int64_t bh = 0; bh < w.problem().heads_total(); ++bh) {
                    const auto want = topk_select(r.out.data() + w.problem().q_size() + bh * n, n, k);
                    for (std::int64_t i = 0; i < k; ++i)
                        ASSERT_EQ(r.selected[static_cast<std::size_t>(bh * k + i)], want[static_cast<std::size_t>(i)]);
                }
            }
}

// Equal scores (a constant label cache) select the lowest keys, as topk_select does.
TEST(CpuTopkSparse, TiesGoToTheLowerKey) {
    const AttentionWorkload w(decode_problem(300, 64), 5);
    const TopkSizes t{4, 40};
    const std::vector<float> flat(static_cast<std::size_t>(w.problem().heads_total() * 4 * 300), 0.5f);
    for (const Isa isa : isas()) {
        const TopkRun r = run_topk(w, t, isa, &flat);
        for (std::int64_t bh = 0; bh < w.problem().heads_total(); ++bh)
            for (std::int64_t i = 0; i < t.tokens; ++i) ASSERT_EQ(r.selected[static_cast<std::size_t>(bh * 40 + i)], i);
    }
    const std::vector<float> mixed{1.0f, -0.0f, 2.0f, 0.0f, 2.0f, 1.0f};
    EXPECT_EQ(topk_select(mixed.data(), 6, 3), (std::vector<std::int64_t>{0, 2, 4}));
    EXPECT_EQ(topk_select(mixed.data(), 6, 5), (std::vector<std::int64_t>{0, 1, 2, 4, 5}));
}

// The check fails an output off by more than the tolerance, and scores that are not q[r] . label.
TEST(CpuTopkSparse, CheckCatchesWrongOutputAndScores) {
    const AttentionWorkload w(decode_problem(500, 64, 4), 9);
    const TopkSizes t{16, 32};
    const TopkRun r = run_topk(w, t, Isa::avx2);
    ASSERT_TRUE(topk_check(w, r.channels, t, r.out.data()).ok);
    std::vector<float> off = r.out;
    off[3] += 0.05f;
    EXPECT_FALSE(topk_check(w, r.channels, t, off.data()).ok);
    // Scores of other channels than the calibration's.
    std::vector<std::int32_t> other = r.channels;
    std::rotate(other.begin(), other.begin() + 1, other.end());
    EXPECT_FALSE(topk_check(w, other, t, r.out.data()).ok);
    // An unwritten score.
    off = r.out;
    off[w.problem().q_size()] = kNan;
    EXPECT_FALSE(topk_check(w, r.channels, t, off.data()).ok);
}

// The calibration finds the outlier channels, and with them a sixteenth of the keys carries
// nearly all of the attention: the error against dense attention is small, and zero at k = seq_k.
TEST(CpuTopkSparse, CalibrationFindsOutliersAndTheErrorIsSmall) {
    const AttentionWorkload plain(decode_problem(4096, 128), 11), outliers(decode_problem(4096, 128, 4), 11);
    const AttentionProblem& p = outliers.problem();
    const std::int64_t d = p.head_dim;
    const std::vector<std::int32_t> ch = topk_calibrate(p, outliers.k().data(), 16);
    for (std::int64_t bh = 0; bh < p.heads_total(); ++bh) {
        // The channels whose |K| is kOutlierScale times the others' are the four largest.
        std::vector<double> mass(static_cast<std::size_t>(d));
        for (std::int64_t j = 0; j < p.seq_k; ++j)
            for (std::int64_t c = 0; c < d; ++c)
                mass[static_cast<std::size_t>(c)] +=
                    std::fabs(outliers.k()[p.kv_offset(bh) + static_cast<std::size_t>(j * d + c)]);
        int big = 0;
        for (int c = 0; c < 16; ++c)
            big += mass[static_cast<std::size_t>(ch[static_cast<std::size_t>(bh * 16 + c)])] >
                   2.0 * static_cast<double>(p.seq_k);
        EXPECT_EQ(big, 4) << "head " << bh;
    }
    const TopkSizes sixteenth{16, 256}, all{16, 4096};
    const double with = topk_approx_error(outliers, run_topk(outliers, sixteenth, Isa::avx2).out.data()).value;
    const double without = topk_approx_error(plain, run_topk(plain, sixteenth, Isa::avx2).out.data()).value;
    EXPECT_LT(with, 0.2);
    EXPECT_LT(with, without / 2);
    EXPECT_LT(topk_approx_error(outliers, run_topk(outliers, all, Isa::avx2).out.data()).value, 1e-5);
}

Params topk_point(std::int64_t seq_k, std::int64_t d, std::int64_t r, double sparsity) {
    Params p;
    p.set("batch", std::int64_t{1});
    p.set("heads", std::int64_t{8});
    p.set("seq_q", std::int64_t{1});
    p.set("seq_k", seq_k);
    p.set("head_dim", d);
    p.set("causal", std::int64_t{0});
    p.set("dtype", std::string("fp32"));
    p.set("outliers", std::int64_t{4});
    p.set("label_channels", r);
    p.set("sparsity", sparsity);
    return p;
}

TEST(CpuTopkSparse, RejectsBadSizesInOneLine) {
    EXPECT_NO_THROW(TopkSizes::from(topk_point(100, 64, 64, 1.0)));
    EXPECT_EQ(TopkSizes::from(topk_point(100, 64, 16, 0.05)).tokens, 5);
    for (const Params& bad : {topk_point(100, 64, 65, 0.1), topk_point(100, 64, 0, 0.1), topk_point(100, 64, 16, 0.0),
                              topk_point(100, 64, 16, 1.5)}) {
        try {
            validate_decode_axes(bad);
            ADD_FAILURE() << bad.label();
        } catch (const UsageError& e) {
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
        }
    }
    Params prefill = topk_point(100, 64, 16, 0.1);
    prefill.set("seq_q", std::int64_t{2});
    EXPECT_THROW(TopkSizes::from(prefill), UsageError);
}

// At the bench's shape (seq_k 32768, d 128, r 16, k = seq_k / 16) the label cache and the selected
// rows are an eighth of dense decode's K and V.
TEST(CpuTopkSparse, ReadsAnEighthOfTheKvAtTheBenchShape) {
    const Params point = topk_point(32768, 128, 16, 1.0 / 16);
    const AttentionProblem p = AttentionProblem::from(point);
    const TopkSizes t = TopkSizes::from(point);
    EXPECT_EQ(t.tokens, 2048);
    EXPECT_DOUBLE_EQ(topk_kv_bytes(p, t), 2.0 * 4.0 * static_cast<double>(p.kv_size()) / 8);
}

}  // namespace
}  // namespace memwall

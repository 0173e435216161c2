// topk_sparse's CUDA kernels under cuda-emu: the check on sizes no block divides, the selection
// rule on ties, DRAM traffic equal to the model's (topk_traffic), and the variant as the harness
// drives it (the error counter and the channels in the case's message).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/catalogue.hpp"
#include "cuda_emu/traffic.hpp"
#include "kernels/attention/cuda/topk_case.hpp"
#include "kernels/attention/decode.hpp"
#include "kernels/attention/register.hpp"
#include "kernels/attention/register_cuda.hpp"

namespace memwall {
namespace {

AttentionProblem decode_problem(std::int64_t seq_k) {
    AttentionProblem p;
    p.heads = 2;
    p.seq_k = seq_k;
    p.head_dim = 64;
    p.outliers = 2;
    return p;
}

struct Emulated {
    std::vector<float> out;
    std::vector<std::int32_t> channels;
    emu::TrafficStats traffic;
};

Emulated emulate(const AttentionWorkload& w, const attention_cuda::TopkTuning& t,
                 const std::vector<float>* label_override = nullptr) {
    const AttentionProblem& p = w.problem();
    Emulated e;
    e.channels = topk_calibrate(p, w.k().data(), t.channels);
    const std::vector<float> label =
        label_override ? *label_override : topk_label_cache(p, w.k().data(), e.channels, t.channels);
    auto c = attention_cuda::cuda_emu::make_topk_case(
        cuda_shape(p), t, {w.q().data(), w.k().data(), w.v().data(), label.data(), e.channels, ""});
    c->poison();
    {
        emu::TrafficScope scope;
        c->run();
        e.traffic = scope.stats();
    }
    e.out.resize(c->output_size());
    c->download(e.out.data());
    return e;
}

TEST(CudaEmuAttentionTopk, PassesItsCheck) {
    for (const std::int64_t n : {300, 1000})
        for (const int k : {1, 33, static_cast<int>(n)})
            for (const int splits : {1, 3})
                for (const int threads : {32, 256, 1024}) {
                    const AttentionWorkload w(decode_problem(n), 4);
                    const attention_cuda::TopkTuning t{16, k, splits, threads};
                    const Emulated e = emulate(w, t);
                    const Check c = topk_check(w, e.channels, {t.channels, t.tokens}, e.out.data());
                    EXPECT_TRUE(c.ok) << "n=" << n << " k=" << k << " splits=" << splits << " threads=" << threads
                                      << ": " << c.message;
                }
}

// Equal scores (a constant label cache) select the lowest keys, as the CPU kernel does
// (decode_test's TiesGoToTheLowerKey): both outputs are attention over keys 0 .. k-1.
TEST(CudaEmuAttentionTopk, TiesGoToTheLowerKey) {
    const AttentionWorkload w(decode_problem(300), 4);
    const AttentionProblem& p = w.problem();
    const std::vector<float> flat(static_cast<std::size_t>(2 * 4 * 300), 0.25f);
    const Emulated e = emulate(w, attention_cuda::TopkTuning{4, 40, 2, 64}, &flat);
    std::vector<float> cpu(topk_output_floats(p));
    std::vector<std::int32_t> selected(2 * 40);
    attention_topk_sparse(p, {4, 40}, w.q().data(), w.k().data(), w.v().data(), flat.data(), e.channels.data(),
                          cpu.data(), selected.data());
    for (std::int32_t i = 0; i < 40; ++i) ASSERT_EQ(selected[static_cast<std::size_t>(i)], i);
    for (std::size_t i = 0; i < cpu.size(); ++i) EXPECT_NEAR(e.out[i], cpu[i], 1e-5f) << i;
}

// DRAM reads and writes are the model's: Q, the channels, the label cache and the selected rows
// read once; scores, selected keys, partials and O written once. The KV bytes read (label cache
// and selected rows) are r / (2d) + k / seq_k of dense decode's. Every array is whole 32-byte
// sectors here (2 heads x 4 or 8 log-sum-exps, 20 keys), as the emulator counts DRAM in sectors.
TEST(CudaEmuAttentionTopk, DramTrafficEqualsTheModel) {
    const AttentionWorkload w(decode_problem(320), 6);
    for (const int splits : {4, 8}) {
        const attention_cuda::TopkTuning t{16, 20, splits, 128};
        const Emulated e = emulate(w, t);
        ASSERT_TRUE(e.traffic.counted);
        EXPECT_EQ(e.traffic.launches, 3u);
        const TopkTraffic model = topk_traffic(w.problem(), {16, 20}, topk_cuda_plan(splits));
        EXPECT_EQ(static_cast<double>(e.traffic.dram_read_bytes), model.reads) << "splits " << splits;
        EXPECT_EQ(static_cast<double>(e.traffic.dram_write_bytes), model.writes) << "splits " << splits;
    }
    const double dense_kv = 2.0 * 4.0 * static_cast<double>(w.problem().kv_size());
    EXPECT_DOUBLE_EQ(topk_kv_bytes(w.problem(), {16, 20}), (16.0 / 128 + 20.0 / 320) * dense_kv);
}

TEST(CudaEmuAttentionTopk, TheVariantStoresItsErrorAndChannels) {
    Catalogue c;
    register_attention(c);
    const Family& f = c.family("attention");
    const Variant& v = c.variant("attention", "topk_sparse", Backend::cuda_emu);
    Params point;
    for (const auto& [name, value] : std::vector<std::pair<std::string, Value>>{{"batch", std::int64_t{1}},
                                                                                {"heads", std::int64_t{2}},
                                                                                {"seq_q", std::int64_t{1}},
                                                                                {"seq_k", std::int64_t{512}},
                                                                                {"head_dim", std::int64_t{64}},
                                                                                {"causal", std::int64_t{0}},
                                                                                {"dtype", std::string("fp32")},
                                                                                {"outliers", std::int64_t{4}},
                                                                                {"label_channels", std::int64_t{16}},
                                                                                {"sparsity", 0.0625},
                                                                                {"num_splits", std::int64_t{2}},
                                                                                {"select_threads", std::int64_t{128}}})
        point.set(name, value);
    const auto w = f.make_workload(point, 3);
    const auto inst = v.prepare(*w, point);
    inst->poison();
    inst->run();
    EXPECT_TRUE(inst->check().ok) << inst->check().message;
    const auto counters = inst->measured_counters();
    const auto error =
        std::find_if(counters.begin(), counters.end(), [](const Counter& x) { return x.name == "approx.rel_l2"; });
    ASSERT_NE(error, counters.end());
    EXPECT_GT(error->value, 0.0);
    EXPECT_LT(error->value, 0.5);
    EXPECT_NE(inst->detail().find("label channels: h0 {"), std::string::npos);
}

}  // namespace
}  // namespace memwall

#include "kernels/attention/attention.hpp"
#include "tests/kernels/attention/attention_points.hpp"

#include <limits>

#include <gtest/gtest.h>

namespace memwall {
namespace {

using attention_test::problem;

TEST(AttentionProblem, ReadsTheFamilyAxes) {
    Params point;
    point.set("batch", std::int64_t{2});
    point.set("heads", std::int64_t{3});
    point.set("seq_q", std::int64_t{5});
    point.set("seq_k", std::int64_t{7});
    point.set("head_dim", std::int64_t{128});
    point.set("causal", std::int64_t{1});
    point.set("dtype", std::string("bf16"));
    const AttentionProblem p = AttentionProblem::from(point);
    EXPECT_EQ(p.batch, 2);
    EXPECT_EQ(p.heads, 3);
    EXPECT_EQ(p.seq_q, 5);
    EXPECT_EQ(p.seq_k, 7);
    EXPECT_EQ(p.head_dim, 128);
    EXPECT_TRUE(p.causal);
    EXPECT_EQ(p.dtype, AttentionDtype::bf16);
    EXPECT_EQ(p.q_size(), 2u * 3 * 5 * 128);
    EXPECT_EQ(p.kv_size(), 2u * 3 * 7 * 128);
    EXPECT_EQ(p.kv_offset(4), 4u * 7 * 128);
}

TEST(AttentionProblem, DtypeSetsTheElementSizeOfTheCompulsoryBytes) {
    EXPECT_EQ(attention_dtype_from("fp32"), AttentionDtype::fp32);
    EXPECT_THROW(attention_dtype_from("fp16"), UsageError);
    AttentionProblem p = problem(1, 2, 3, 5, 64, false);
    EXPECT_EQ(attention_compulsory_bytes(p), 4.0 * (2 * 2 * 3 * 64 + 2 * 2 * 5 * 64));
    p.dtype = AttentionDtype::bf16;
    EXPECT_EQ(p.element_bytes(), 2.0);
    EXPECT_EQ(attention_compulsory_bytes(p), 2.0 * (2 * 2 * 3 * 64 + 2 * 2 * 5 * 64));
    EXPECT_EQ(attention_flops(p), 4.0 * 2 * 3 * 5 * 64);
}

TEST(AttentionProblem, RejectsBadSizes) {
    EXPECT_THROW(problem(1, 1, 4, 4, 96, false).validate(), UsageError);
    EXPECT_THROW(problem(1, 0, 4, 4, 64, false).validate(), UsageError);
    EXPECT_THROW(problem(1, 1, 4, 0, 64, false).validate(), UsageError);
    EXPECT_NO_THROW(problem(1, 1, 1, 1, 64, true).validate());
}

TEST(AttentionProblem, CausalIsBottomRightAligned) {
    const auto square = problem(1, 1, 4, 4, 64, true);
    EXPECT_EQ(square.visible_keys(0), 1);
    EXPECT_EQ(square.visible_keys(3), 4);
    // More keys than queries: the first query already sees s_k - s_q + 1 keys.
    const auto wide = problem(1, 1, 2, 5, 64, true);
    EXPECT_EQ(wide.visible_keys(0), 4);
    EXPECT_EQ(wide.visible_keys(1), 5);
    // More queries than keys: the first s_q - s_k rows see nothing.
    const auto tall = problem(1, 1, 5, 2, 64, true);
    EXPECT_EQ(tall.visible_keys(0), 0);
    EXPECT_EQ(tall.visible_keys(2), 0);
    EXPECT_EQ(tall.visible_keys(3), 1);
    EXPECT_EQ(tall.visible_keys(4), 2);
    EXPECT_EQ(problem(1, 1, 5, 2, 64, false).visible_keys(0), 2);
}

TEST(AttentionModel, FlopsFollowTheFlashAttentionConvention) {
    EXPECT_EQ(attention_flops(problem(2, 3, 5, 7, 64, false)), 4.0 * 2 * 3 * 5 * 7 * 64);
    EXPECT_EQ(attention_flops(problem(2, 3, 5, 7, 64, true)), 2.0 * 2 * 3 * 5 * 7 * 64);
    EXPECT_EQ(attention_flops(problem(1, 8, 4096, 4096, 128, false)), 68719476736.0);
}

TEST(AttentionModel, CompulsoryBytesReadQKVAndWriteO) {
    // Q and O: 2*3*5*64 floats each; K and V: 2*3*7*64 each.
    EXPECT_EQ(attention_compulsory_bytes(problem(2, 3, 5, 7, 64, false)), 4.0 * (2 * 1920 + 2 * 2688));
}

MemoryHierarchy zen4() {
    MemoryHierarchy mh;
    mh.caches = {{"l1", 32 << 10, 1}, {"l2", 1 << 20, 1}, {"llc", 32 << 20, 2}};
    mh.cpus = 2;
    return mh;
}

TEST(AttentionModel, NaiveScoreTensorGoesToDramWhenLargerThanTheLlc) {
    const auto big = problem(1, 8, 4096, 4096, 128, false);
    const auto cs = naive_model(big, zen4());
    const double score = 8.0 * 4096 * 4096 * 4;
    EXPECT_EQ(find_counter(cs, "flops")->value, attention_flops(big));
    EXPECT_EQ(find_counter(cs, "bytes.min")->value, attention_compulsory_bytes(big));
    EXPECT_EQ(find_counter(cs, "workspace.bytes")->value, score);
    EXPECT_EQ(find_counter(cs, "bytes.dram")->value, attention_compulsory_bytes(big) + 4 * score);

    // 256 x 256 scores per head (256 KiB per thread) and one head's K (64 KiB) live in l2:
    // dram and llc see only the compulsory bytes.
    const auto small = problem(1, 2, 256, 256, 64, false);
    const auto cs2 = naive_model(small, zen4());
    const double compulsory = attention_compulsory_bytes(small);
    EXPECT_EQ(find_counter(cs2, "bytes.dram")->value, compulsory);
    EXPECT_EQ(find_counter(cs2, "bytes.llc")->value, compulsory);
    const double small_score = 2.0 * 256 * 256 * 4;
    const double kv_rereads = 2.0 * 2 * 256 * 256 * 64 * 4;  // every row reads all of K and V
    EXPECT_EQ(find_counter(cs2, "bytes.l2")->value, compulsory + 4 * small_score + kv_rereads);
    // Every stream passes l1; no stream is served from l1 alone.
    EXPECT_EQ(find_counter(cs2, "bytes.l1")->value, find_counter(cs2, "bytes.l2")->value);
}

TEST(AttentionModel, FlashRereadsKAndVOncePerQueryTile) {
    // 2 heads, 16 query tiles of 64 rows; packed K and V have 24 panels of 128 keys (3072 keys).
    const auto p = problem(1, 2, 1000, 3000, 64, false);
    const auto cs = flash_model(p, {64, 128}, zen4());
    const double compulsory = 4.0 * (2 * 2 * 1000 * 64 + 2 * 2 * 3000 * 64);
    const double packed = 2.0 * 2 * 3072 * 64 * 4;             // K and V: per thread 1.5 MiB, llc
    const double rereads = 2.0 * 16 * (3072 + 3000) * 64 * 4;  // one head's K+V: 1.5 MiB, llc
    EXPECT_EQ(find_counter(cs, "bytes.min")->value, compulsory);
    EXPECT_EQ(find_counter(cs, "bytes.dram")->value, compulsory);
    EXPECT_EQ(find_counter(cs, "bytes.llc")->value, compulsory + rereads + packed);
    EXPECT_EQ(find_counter(cs, "bytes.l2")->value, compulsory + rereads + packed);
    EXPECT_EQ(find_counter(cs, "bytes.l1")->value, compulsory + rereads + packed);
    EXPECT_EQ(find_counter(cs, "workspace.bytes")->value,
              packed + 2.0 * 4 * static_cast<double>(flash_scratch_floats(p, {64, 128})));
}

TEST(AttentionModel, FlashCausalReadsOnlyTheVisitedKeyTiles) {
    const auto full = flash_model(problem(1, 1, 256, 256, 128, false), {64, 64}, zen4());
    const auto causal = flash_model(problem(1, 1, 256, 256, 128, true), {64, 64}, zen4());
    const double compulsory = attention_compulsory_bytes(problem(1, 1, 256, 256, 128, false));
    const double packed = 2 * 256.0 * 128 * 4;  // K and V packed, 128 KiB: l2, as is one head's K and V
    // Query tiles see 64, 128, 192 and 256 keys: 640 of K and 640 of V, against 4 x 512.
    EXPECT_EQ(find_counter(causal, "bytes.l2")->value, compulsory + packed + 1280.0 * 128 * 4);
    EXPECT_EQ(find_counter(full, "bytes.l2")->value, compulsory + packed + 2048.0 * 128 * 4);
    EXPECT_EQ(find_counter(causal, "flops")->value, find_counter(full, "flops")->value / 2);
}

}  // namespace
}  // namespace memwall

#include "kernels/attention/register.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "core/catalogue.hpp"
#include "kernels/attention/attention.hpp"
#include "tests/kernels/attention/attention_points.hpp"

namespace memwall {
namespace {

Catalogue attention_catalogue() {
    Catalogue c;
    register_attention(c);
    return c;
}

Params point(std::int64_t sq, std::int64_t sk, std::int64_t d, bool causal) {
    return attention_test::problem_point(1, 2, sq, sk, d, causal, "fp32");
}

// The problem with the variant's own problem axes (topk_sparse's sizes, ...) at their defaults.
Params with_own_axes(Params p, const Variant& v) {
    for (const Axis& a : v.problem_axes) p.set(a.name, a.defaults.front());
    return p;
}

// The point with the variant's tunables at their defaults.
Params with_defaults(Params p, const Variant& v) {
    for (const Axis& a : v.tunables) p.set(a.name, a.defaults.front());
    return p;
}

Params with_tiles(Params p, std::int64_t br, std::int64_t bc) {
    p.set("Br", br);
    p.set("Bc", bc);
    return p;
}

TEST(RegisterAttention, FamilyAxesAndZips) {
    const Catalogue c = attention_catalogue();
    const Family& f = c.family("attention");
    std::vector<std::string> names;
    for (const Axis& a : f.problem_axes) names.push_back(a.name);
    EXPECT_EQ(names, (std::vector<std::string>{"batch", "heads", "seq_q", "seq_k", "head_dim", "causal", "dtype"}));
    EXPECT_EQ(f.zipped, (std::vector<std::vector<std::string>>{{"seq_q", "seq_k"}}));
    const Axis& seq_q = f.problem_axes[2];
    EXPECT_EQ(seq_q.defaults, (std::vector<Value>{std::int64_t{512}, std::int64_t{1024}, std::int64_t{2048}}));
    EXPECT_EQ(f.problem_axes[5].kind, AxisKind::boolean);
    const Axis& head_dim = f.problem_axes[4];
    EXPECT_NO_THROW(head_dim.validate(std::int64_t{128}));
    EXPECT_THROW(head_dim.validate(std::int64_t{96}), UsageError);
    EXPECT_THROW(f.problem_axes[0].validate(std::int64_t{0}), UsageError);
    const Axis& dtype = f.problem_axes[6];
    EXPECT_EQ(dtype.defaults, (std::vector<Value>{std::string("fp32")}));
    EXPECT_NO_THROW(dtype.validate(std::string("bf16")));
    EXPECT_THROW(dtype.validate(std::string("fp16")), UsageError);
}

// The problem axes of the variant's space, in order.
std::vector<std::string> problem_axes_of(const Family& f, const Variant& v) {
    const Space s = f.space(v);
    std::vector<std::string> names;
    for (const Axis& a : s.axes())
        if (a.role == AxisRole::problem) names.push_back(a.name);
    return names;
}

// A case's identity is its parameters: the dense variants' problems have the family's axes alone,
// as before the sparse variants came, so their stored cases still match; each sparse variant's
// own axes are in its problems only.
TEST(RegisterAttention, SparseVariantsAxesStayOutOfTheDenseVariantsProblems) {
    const Catalogue c = attention_catalogue();
    const Family& f = c.family("attention");
    const std::vector<std::string> family = {"batch", "heads", "seq_q", "seq_k", "head_dim", "causal", "dtype"};
    const std::vector<std::pair<const char*, Backend>> dense = {{"naive", Backend::cpu},
                                                                {"flash", Backend::cpu},
                                                                {"decode_splitkv", Backend::cpu},
                                                                {"naive", Backend::cuda_emu},
                                                                {"flash", Backend::cuda_emu},
                                                                {"flash_tc", Backend::cuda_emu},
                                                                {"decode_splitkv", Backend::cuda_emu},
                                                                {"naive", Backend::cuda},
                                                                {"flash", Backend::cuda},
                                                                {"flash_tc", Backend::cuda},
                                                                {"decode_splitkv", Backend::cuda}};
    for (const auto& [name, backend] : dense)
        EXPECT_EQ(problem_axes_of(f, c.variant("attention", name, backend)), family)
            << name << " on " << to_string(backend);
    std::vector<std::string> topk = family, blocksparse = family;
    topk.insert(topk.end(), {"outliers", "label_channels", "sparsity"});
    blocksparse.insert(blocksparse.end(), {"mask", "block", "window", "density"});
    for (const Backend b : {Backend::cpu, Backend::cuda_emu, Backend::cuda}) {
        EXPECT_EQ(problem_axes_of(f, c.variant("attention", "topk_sparse", b)), topk) << to_string(b);
        EXPECT_EQ(problem_axes_of(f, c.variant("attention", "flash_blocksparse", b)), blocksparse) << to_string(b);
    }
}

// The message of the UsageError f.validate throws for `p`, or "" when it accepts it.
std::string refusal(const Family& f, const Params& p) {
    try {
        f.validate(p);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

// The family's one validator checks both sparse variants' own axes, each refusal one line, and
// accepts the dense variants' points, which have neither.
TEST(RegisterAttention, OneValidatorRefusesEitherSparseVariantsBadAxesInOneLine) {
    const Catalogue c = attention_catalogue();
    const Family& f = c.family("attention");
    const Params dense = point(1, 256, 64, false);
    EXPECT_EQ(refusal(f, dense), "");
    const Params topk = with_own_axes(dense, c.variant("attention", "topk_sparse", Backend::cpu));
    EXPECT_EQ(refusal(f, topk), "");
    Params wide = topk;
    wide.set("label_channels", std::int64_t{65});
    EXPECT_EQ(refusal(f, wide), "attention/topk_sparse: label_channels must be 1 to head_dim (64), got 65");
    for (const double sparsity : {0.0, 1.5}) {
        Params bad = topk;
        bad.set("sparsity", sparsity);
        const std::string why = refusal(f, bad);
        EXPECT_EQ(why.rfind("attention/topk_sparse: sparsity must be in (0, 1]", 0), 0u) << why;
        EXPECT_EQ(why.find('\n'), std::string::npos) << why;
    }
    Params outliers = topk;
    outliers.set("outliers", std::int64_t{65});
    EXPECT_EQ(refusal(f, outliers), "attention: outliers must be 0 to head_dim, got 65");
    Params blocksparse = with_own_axes(dense, c.variant("attention", "flash_blocksparse", Backend::cpu));
    EXPECT_EQ(refusal(f, blocksparse), "");
    blocksparse.set("density", 0.0);
    EXPECT_EQ(refusal(f, blocksparse), "attention/flash_blocksparse: density must be in (0, 1], got 0");
}

TEST(RegisterAttention, CpuVariantsAreFp32Only) {
    const Catalogue c = attention_catalogue();
    Params bf16 = with_tiles(point(64, 64, 64, false), 32, 64);
    bf16.set("dtype", std::string("bf16"));
    for (const char* name : {"naive", "flash"}) {
        const Space s = c.family("attention").space(c.variant("attention", name, Backend::cpu));
        const Constraint* broken = s.violated(bf16);
        ASSERT_NE(broken, nullptr) << name;
        EXPECT_NE(broken->description.find("fp32"), std::string::npos) << name;
    }
}

TEST(RegisterAttention, DefaultSweepIsThreeZippedLengthsByTwoHeadDimsByCausal) {
    const Catalogue c = attention_catalogue();
    const Family& f = c.family("attention");
    const Space naive = f.space(c.variant("attention", "naive", Backend::cpu));
    EXPECT_EQ(naive.points().size(), 3u * 2 * 2);
    const Space flash = f.space(c.variant("attention", "flash", Backend::cpu));
    EXPECT_EQ(flash.points().size(), 3u * 2 * 2);
    for (const Params& p : flash.points()) EXPECT_EQ(p.integer("seq_q"), p.integer("seq_k"));
}

TEST(RegisterAttention, FlashTunablesAndConstraints) {
    const Catalogue c = attention_catalogue();
    const Variant& v = c.variant("attention", "flash", Backend::cpu);
    ASSERT_EQ(v.tunables.size(), 2u);
    EXPECT_EQ(v.tunables[0].name, "Br");
    EXPECT_EQ(v.tunables[1].name, "Bc");
    EXPECT_EQ(v.tunables[0].role, AxisRole::tunable);
    EXPECT_EQ(v.tunables[0].defaults.size(), 1u);
    EXPECT_EQ(v.tunables[0].min, kFlashRowsGranule);
    EXPECT_EQ(v.tunables[1].min, flash_cols_granule());
    const Space s = c.family("attention").space(v);
    EXPECT_EQ(s.violated(with_tiles(point(64, 64, 64, false), 32, 64)), nullptr);
    EXPECT_NE(s.violated(with_tiles(point(64, 64, 64, false), 20, 64)), nullptr);
    EXPECT_NE(s.violated(with_tiles(point(64, 64, 64, false), 32, flash_cols_granule() + 4)), nullptr);
}

TEST(RegisterAttention, EveryVariantRunsAndPassesItsCheck) {
    const Catalogue c = attention_catalogue();
    const Family& f = c.family("attention");
    for (bool causal : {false, true})
        for (const std::int64_t seq_q : {70, 1}) {  // the decode variants take seq_q = 1 alone
            for (const Variant& v : f.variants) {
                if (v.backend != Backend::cpu) continue;      // tests/kernels/attention/cuda has the others
                if (v.name == "flash_blocksparse") continue;  // its masks: cpu_flash_blocksparse_test
                const Params problem = with_own_axes(point(seq_q, 90, 64, causal), v);
                const Params config = v.name == "flash" ? with_tiles(problem, 32, 32) : with_defaults(problem, v);
                if (f.space(v).violated(config)) continue;
                const auto w = f.make_workload(problem, 3);
                auto inst = v.prepare(*w, config);
                inst->poison();
                inst->run();
                const Check chk = inst->check();
                EXPECT_TRUE(chk.ok) << v.name << ": " << chk.message;
                EXPECT_GT(inst->run_timed(), 0.0);
            }
        }
}

TEST(RegisterAttention, PoisonedOutputFailsTheCheckWithoutARun) {
    const Catalogue c = attention_catalogue();
    const Family& f = c.family("attention");
    for (const std::int64_t seq_q : {40, 1}) {
        for (const Variant& v : f.variants) {
            if (v.backend != Backend::cpu) continue;
            const Params problem = with_own_axes(point(seq_q, 40, 128, false), v);
            const Params config = with_tiles(with_defaults(problem, v), 16, 32);
            if (f.space(v).violated(config)) continue;
            const auto w = f.make_workload(problem, 3);
            auto inst = v.prepare(*w, config);
            inst->run();
            EXPECT_TRUE(inst->check().ok) << v.name;
            inst->poison();  // an instance whose run writes nothing leaves the poison in place
            const Check chk = inst->check();
            EXPECT_FALSE(chk.ok) << v.name;
            EXPECT_EQ(chk.message, "O[b=0, h=0, i=0, d=0] is nan: not written or not finite") << v.name;
        }
    }
}

TEST(RegisterAttention, ModelsReportFlopsBytesAndWorkspace) {
    const Catalogue c = attention_catalogue();
    MemoryHierarchy mh;
    mh.caches = {{"l1", 32 << 10, 1}, {"l2", 1 << 20, 1}, {"llc", 32 << 20, 2}};
    mh.cpus = 2;
    const Params p = with_tiles(point(512, 1024, 128, true), 64, 64);
    for (const char* name : {"naive", "flash"}) {
        const auto cs = c.variant("attention", name, Backend::cpu).model(p, mh);
        ASSERT_NE(find_counter(cs, "flops"), nullptr) << name;
        EXPECT_EQ(find_counter(cs, "flops")->value, 2.0 * 2 * 512 * 1024 * 128) << name;
        EXPECT_EQ(find_counter(cs, "flops")->unit, "FLOP");
        EXPECT_EQ(find_counter(cs, "bytes.min")->value, 4.0 * (2 * 2 * 512 * 128 + 2 * 2 * 1024 * 128));
        ASSERT_NE(find_counter(cs, "bytes.dram"), nullptr) << name;
        EXPECT_GE(find_counter(cs, "bytes.dram")->value, find_counter(cs, "bytes.min")->value);
        EXPECT_GT(find_counter(cs, "workspace.bytes")->value, 0) << name;
    }
}

TEST(RegisterAttention, PrepareRejectsForeignWorkloads) {
    const Catalogue c = attention_catalogue();
    const Workload other;
    EXPECT_THROW(c.variant("attention", "naive", Backend::cpu).prepare(other, point(8, 8, 64, false)),
                 std::logic_error);
}

}  // namespace
}  // namespace memwall

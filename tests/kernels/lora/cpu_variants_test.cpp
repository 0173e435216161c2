// Every CPU variant against the float64 reference, fp32 and bf16 (where oneDNN has a bf16 matmul),
// on sizes that end in partial vectors and register blocks, one adapter and three (segments that
// split register blocks), ranks below the vector width, above it, of 3 and 4 vectors (the widest
// bf16 down-projection block) and beyond them, and tiles at their limits.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/lora/cpu_kernels.hpp"
#include "lora_test_support.hpp"

namespace memwall {
namespace {

using lora_test::Shape;

void expect_correct(const std::string& variant, const Shape& s, std::int64_t tile_m = 64, std::int64_t tile_n = 512,
                    std::int64_t group = 8) {
    Params point = lora_test::point_of(s);
    point.set("tile_m", tile_m);
    point.set("tile_n", tile_n);
    point.set("group", group);
    const Family& f = lora_test::catalogue().family("lora");
    const auto w = f.make_workload(point, 3);
    const auto inst = lora_test::catalogue().variant("lora", variant, Backend::cpu).prepare(*w, point);
    inst->poison();
    inst->run();
    const Check c = inst->check();
    EXPECT_TRUE(c.ok) << variant << " " << point.label() << ": " << c.message << " (error " << c.error << ")";
}

// bf16 on every CPU: oneDNN's matmul where it has one, else sgemm on widened operands.
std::vector<std::string> dtypes() { return {"fp32", "bf16"}; }

TEST(LoraCpuVariants, EveryVariantMatchesTheReference) {
    for (const std::string& dtype : dtypes())
        for (const Shape& s : {Shape{37, 70, 45, 16, 1, 0.1, 16, dtype}, Shape{50, 33, 29, 5, 3, 0.2, 3, dtype},
                               Shape{23, 130, 70, 20, 2, 0.0, 1, dtype}, Shape{6, 7, 3, 1, 1, 0.5, 2, dtype},
                               Shape{19, 40, 17, 40, 2, 0.1, 2, dtype}, Shape{11, 64, 9, 64, 1, 0.1, 4, dtype},
                               Shape{9, 35, 8, 70, 1, 0.1, 1, dtype}})
            for (const char* v : {"base", "unfused", "fused", "multi_adapter"}) expect_correct(v, s);
}

TEST(LoraCpuVariants, TheFusedPassesAtTheirTileLimits) {
    const Shape s{41, 64, 35, 16, 3};
    for (const char* v : {"fused", "multi_adapter"}) {
        expect_correct(v, s, 1, 1);     // one token per task, one column per block
        expect_correct(v, s, 1000, 7);  // one task, blocks narrower than a vector
    }
}

// Adapter grouping: calls of 1 adapter (fused's), 2 (the last call takes the third alone) and
// more than the batch has.
TEST(LoraCpuVariants, MultiAdapterGroupsOfAnySize) {
    for (const std::string& dtype : dtypes())
        for (std::int64_t group : {1, 2, 5})
            expect_correct("multi_adapter", Shape{41, 64, 35, 16, 3, 0.1, 16, dtype}, 64, 512, group);
}

// Without oneDNN's bf16 matmul (an AVX2 host, or MEMWALL_ISA=avx2: ctest runs this test so too),
// a bf16 case runs on sgemm with its operands widened to fp32, says so, and matches the reference.
TEST(LoraCpuVariants, Bf16WithoutOneDnnsBf16MatmulWidensToFp32) {
    if (lora_cpu::Gemm::bf16_available()) GTEST_SKIP() << "oneDNN has a bf16 matmul here (run with MEMWALL_ISA=avx2)";
    Params point = lora_test::point_of(Shape{37, 70, 45, 16, 1, 0.1, 16, "bf16"});
    point.set("group", std::int64_t{8});
    const auto w = lora_test::catalogue().family("lora").make_workload(point, 3);
    for (const char* v : {"base", "unfused", "fused", "multi_adapter"}) {
        const auto inst = lora_test::catalogue().variant("lora", v, Backend::cpu).prepare(*w, point);
        EXPECT_NE(inst->detail().find("widened to fp32"), std::string::npos) << v << ": " << inst->detail();
        inst->poison();
        inst->run();
        const Check c = inst->check();
        EXPECT_TRUE(c.ok) << v << ": " << c.message;
    }
}

}  // namespace
}  // namespace memwall

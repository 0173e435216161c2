// The CUDA attention variants in the catalogue: both backends, their constraints and models,
// and the cuda-emu instances as the harness drives them (poison, run, check, counters).
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <string>

#include "core/catalogue.hpp"
#include "kernels/attention/attention.hpp"
#include "kernels/attention/cuda/device_case.hpp"
#include "kernels/attention/register.hpp"
#include "kernels/attention/register_cuda.hpp"
#include "tests/kernels/attention/attention_points.hpp"

namespace memwall {
namespace {

Catalogue cuda_catalogue() {
    Catalogue c;
    register_attention(c);
    return c;
}

Params point(std::int64_t sq, std::int64_t sk, std::int64_t d, bool causal, const char* dtype = "fp32") {
    return attention_test::problem_point(1, 2, sq, sk, d, causal, dtype);
}

Params flash_point(Params p, std::int64_t br, std::int64_t bc, std::int64_t warps) {
    p.set("Br", br);
    p.set("Bc", bc);
    p.set("warps", warps);
    return p;
}

Params decode_point(Params p, std::int64_t splits) {
    p.set("num_splits", splits);
    return p;
}

const char* const names[] = {"naive", "flash", "decode_splitkv"};

TEST(CudaEmuAttentionRegister, EveryAlgorithmForBothBackends) {
    const Catalogue c = cuda_catalogue();
    for (const char* name : names) {
        const Variant& emu = c.variant("attention", name, Backend::cuda_emu);
        const Variant& gpu = c.variant("attention", name, Backend::cuda);
        EXPECT_NE(emu.description.find("cuda-emu"), std::string::npos);
        EXPECT_NE(gpu.description.find("matched the reference on an NVIDIA H100"), std::string::npos);
        EXPECT_TRUE(emu.gpu_only_reason.empty());
        for (const Variant* v : {&emu, &gpu})  // both element types, as an nvbench type axis
            EXPECT_NE(std::find(v->default_axes.begin(), v->default_axes.end(), "dtype=fp32,bf16"),
                      v->default_axes.end());
    }
}

TEST(CudaEmuAttentionRegister, Constraints) {
    const Catalogue c = cuda_catalogue();
    const Family& f = c.family("attention");
    const Space flash = f.space(c.variant("attention", "flash", Backend::cuda_emu));
    EXPECT_EQ(flash.violated(flash_point(point(64, 64, 128, false), 64, 64, 4)), nullptr);
    EXPECT_NE(flash.violated(flash_point(point(64, 64, 128, false), 128, 128, 4)), nullptr);  // shared memory
    EXPECT_EQ(flash.violated(flash_point(point(64, 64, 64, false), 128, 128, 4)), nullptr);
    EXPECT_NE(flash.violated(flash_point(point(64, 64, 64, false), 48, 64, 32)), nullptr);  // Br % warps
    EXPECT_NE(flash.violated(flash_point(point(64, 64, 64, false), 24, 64, 4)), nullptr);   // multiple of 16
    const Space decode = f.space(c.variant("attention", "decode_splitkv", Backend::cuda_emu));
    EXPECT_EQ(decode.violated(decode_point(point(1, 100, 64, false), 8)), nullptr);
    EXPECT_NE(decode.violated(decode_point(point(2, 100, 64, false), 8)), nullptr);
    EXPECT_NE(decode.violated(decode_point(point(1, 4, 64, false), 8)), nullptr);
    Params many_heads = point(1, 100, 64, false);
    many_heads.set("heads", std::int64_t{70000});
    EXPECT_NE(decode.violated(decode_point(many_heads, 8)), nullptr);
}

TEST(CudaEmuAttentionRegister, ModelsKeepTheCpuFormulasAndTheDeviceWorkspace) {
    const Catalogue c = cuda_catalogue();
    const MemoryHierarchy mh = detect_memory_hierarchy();
    const Params p = flash_point(point(128, 128, 64, false), 64, 64, 4);
    const auto flash = c.variant("attention", "flash", Backend::cuda_emu).model(p, mh);
    const auto cpu =
        c.variant("attention", "flash", Backend::cpu).model(flash_point(point(128, 128, 64, false), 64, 64, 4), mh);
    EXPECT_EQ(find_counter(flash, "flops")->value, find_counter(cpu, "flops")->value);
    EXPECT_EQ(find_counter(flash, "bytes.dram")->value, find_counter(cpu, "bytes.dram")->value);
    EXPECT_EQ(find_counter(flash, "workspace.bytes")->value, 0.0);
    const auto decode = c.variant("attention", "decode_splitkv", Backend::cuda_emu)
                            .model(decode_point(point(1, 100, 64, false), 4), mh);
    EXPECT_EQ(find_counter(decode, "workspace.bytes")->value, 4.0 * 2 * 4 * 65);
    EXPECT_EQ(find_counter(decode, "bytes.dram")->value, 4.0 * (2 * 128 + 2 * 12800) + 2 * 4.0 * 2 * 4 * 65);
}

Params flash_tc_point(Params p, std::int64_t br, std::int64_t bc, std::int64_t warps, std::int64_t stages) {
    p = flash_point(std::move(p), br, bc, warps);
    p.set("stages", stages);
    return p;
}

// flash_tc on both backends, bf16 only, never yet checked on a GPU; emulation's default sweep
// runs every compiled tile, causal and not, on lengths no tile divides.
TEST(CudaEmuAttentionRegister, FlashTcDefaultsRunEveryCompiledTile) {
    const Catalogue c = cuda_catalogue();
    const Variant& emu = c.variant("attention", "flash_tc", Backend::cuda_emu);
    const Variant& gpu = c.variant("attention", "flash_tc", Backend::cuda);
    EXPECT_TRUE(emu.gpu_only_reason.empty());
    EXPECT_EQ(gpu.description.find("matched the reference on an NVIDIA"), std::string::npos);
    Space space = c.family("attention").space(emu);
    for (const std::string& d : emu.default_axes) space.apply_override(d);
    std::set<std::string> tiles;
    std::set<std::int64_t> seq_q;
    int causal = 0;
    for (const Params& p : space.points()) {
        EXPECT_EQ(p.str("dtype"), "bf16");
        tiles.insert(std::to_string(p.integer("head_dim")) + " " + std::to_string(p.integer("Br")) + "/" +
                     std::to_string(p.integer("Bc")) + "/" + std::to_string(p.integer("warps")) + "/" +
                     std::to_string(p.integer("stages")));
        seq_q.insert(p.integer("seq_q"));
        causal += static_cast<int>(p.integer("causal"));
    }
    EXPECT_EQ(tiles.size(), std::size(attention_cuda::kFlashTcTiles));
    for (std::int64_t n : seq_q) EXPECT_NE(n % 16, 0) << n;  // no tile divides them
    EXPECT_GT(causal, 0);
}

TEST(CudaEmuAttentionRegister, FlashTcConstraints) {
    const Catalogue c = cuda_catalogue();
    const Space s = c.family("attention").space(c.variant("attention", "flash_tc", Backend::cuda_emu));
    EXPECT_EQ(s.violated(flash_tc_point(point(64, 64, 128, false, "bf16"), 128, 64, 8, 3)), nullptr);
    EXPECT_EQ(s.violated(flash_tc_point(point(64, 64, 64, false, "bf16"), 128, 128, 8, 2)), nullptr);
    const Constraint* fp32 = s.violated(flash_tc_point(point(64, 64, 64, false), 64, 64, 4, 2));
    ASSERT_NE(fp32, nullptr);
    EXPECT_NE(fp32->description.find("bf16"), std::string::npos);
    EXPECT_NE(s.violated(flash_tc_point(point(64, 64, 128, false, "bf16"), 128, 128, 8, 2)), nullptr);  // registers
    EXPECT_NE(s.violated(flash_tc_point(point(64, 64, 64, false, "bf16"), 64, 64, 8, 2)), nullptr);  // 16 rows a warp
}

// The convention's FLOPs, the tensor FLOPs executed, Q, K, V and O once from DRAM while one
// head's K and V fit in a cache, and every K/V tile read through L1.
TEST(CudaEmuAttentionRegister, FlashTcModel) {
    const Catalogue c = cuda_catalogue();
    const MemoryHierarchy mh = detect_memory_hierarchy();
    const Params p = flash_tc_point(point(100, 200, 64, true, "bf16"), 64, 64, 4, 2);
    const auto m = c.variant("attention", "flash_tc", Backend::cuda_emu).model(p, mh);
    const AttentionProblem a = AttentionProblem::from(p);
    EXPECT_EQ(find_counter(m, "flops")->value, attention_flops(a));
    EXPECT_EQ(find_counter(m, "flops.bf16_tensor")->value, flash_tc_tensor_flops(a, {64, 64}));
    EXPECT_EQ(find_counter(m, "workspace.bytes")->value, 0.0);
    EXPECT_EQ(find_counter(m, "bytes.min")->value, 2.0 * 2 * (2 * 100 * 64 + 2 * 200 * 64));
    EXPECT_EQ(find_counter(m, "bytes.dram")->value, find_counter(m, "bytes.min")->value);
    // Two query tiles: rows 0-63 see keys up to 163 (3 tiles of 64), rows 64-99 all 200.
    EXPECT_EQ(flash_tc_kv_bytes(a, {64, 64}), 2.0 * 2 * 2 * (192 + 200) * 64);
    EXPECT_EQ(find_counter(m, "bytes.l1")->value, 2.0 * 2 * 2 * 100 * 64 + flash_tc_kv_bytes(a, {64, 64}));
    // Per head, warps of 16 rows: row i sees i + 101 keys, so the warps' last rows 15, 31, 47, 63
    // (116, 132, 148, 164 keys) and 79, 95, 99 (180, 196, 200) compute 2, 3, 3, 3 and 3, 4, 4 tiles.
    EXPECT_EQ(flash_tc_tensor_flops(a, {64, 64}), 2.0 * (2 + 3 + 3 + 3 + 3 + 4 + 4) * 4 * 16 * 64 * 64);
}

// bf16 halves the bytes of Q, K, V and O; the fp32 workspaces and the FLOPs stay.
TEST(CudaEmuAttentionRegister, ModelsUseTheElementSize) {
    const Catalogue c = cuda_catalogue();
    const MemoryHierarchy mh = detect_memory_hierarchy();
    for (const char* name : names) {
        const bool decode = std::string(name) == "decode_splitkv";
        auto at = [&](const char* dtype) {
            Params p = point(decode ? 1 : 128, 256, 64, false, dtype);
            if (std::string(name) == "flash") p = flash_point(p, 64, 64, 4);
            if (decode) p = decode_point(p, 4);
            return c.variant("attention", name, Backend::cuda_emu).model(p, mh);
        };
        const auto fp32 = at("fp32"), bf16 = at("bf16");
        EXPECT_EQ(find_counter(bf16, "flops")->value, find_counter(fp32, "flops")->value) << name;
        EXPECT_EQ(2 * find_counter(bf16, "bytes.min")->value, find_counter(fp32, "bytes.min")->value) << name;
        EXPECT_EQ(find_counter(bf16, "workspace.bytes")->value, find_counter(fp32, "workspace.bytes")->value);
        EXPECT_LT(find_counter(bf16, "bytes.dram")->value, find_counter(fp32, "bytes.dram")->value) << name;
    }
}

// As measure_case drives an instance: the check passes and the emu counters of the checked
// run are reported with source emu.
TEST(CudaEmuAttentionRegister, InstancesRunCheckAndReportEmuTraffic) {
    const Catalogue c = cuda_catalogue();
    const Family& f = c.family("attention");
    const Params points[] = {point(40, 72, 64, true),
                             flash_point(point(40, 72, 64, true), 32, 16, 2),
                             decode_point(point(1, 90, 64, false), 3),
                             point(40, 72, 64, true, "bf16"),
                             flash_point(point(40, 72, 64, true, "bf16"), 32, 16, 2),
                             decode_point(point(1, 90, 64, false, "bf16"), 3)};
    for (int i = 0; i < 6; ++i) {
        const char* name = names[i % 3];
        SCOPED_TRACE(points[i].label());
        const auto w = f.make_workload(points[i], 11);
        auto inst = c.variant("attention", name, Backend::cuda_emu).prepare(*w, points[i]);
        inst->poison();
        inst->run();
        const Check ch = inst->check();
        EXPECT_TRUE(ch.ok) << name << ": " << ch.message;
        const auto counters = inst->measured_counters();
        const Counter* loads = find_counter(counters, "emu.global_load_bytes");
        ASSERT_NE(loads, nullptr) << name;
        EXPECT_EQ(loads->source, CounterSource::emu);
        EXPECT_GT(loads->value, 0.0);
        ASSERT_NE(find_counter(counters, "dram__bytes_read.sum"), nullptr);
        EXPECT_GT(inst->run_timed(), 0.0);
    }
}

}  // namespace
}  // namespace memwall

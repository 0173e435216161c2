// The CUDA conv variants in the catalogue: which backends each has (GPU-only ones with their
// reasons), their constraints and models, and the cuda-emu instances as the harness drives them
// (poison, run, check, counters), whose emu global bytes the model predicts.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/catalogue.hpp"
#include "core/errors.hpp"
#include "kernels/conv/conv.hpp"
#include "kernels/conv/register.hpp"
#include "kernels/conv/register_cuda.hpp"

namespace memwall {
namespace {

Catalogue conv_catalogue() {
    Catalogue c;
    register_conv(c);
    return c;
}

Params shape(std::int64_t c, std::int64_t hw, std::int64_t k, std::int64_t r, std::int64_t stride, std::int64_t pad,
             std::int64_t batch = 1) {
    Params p;
    p.set("layer", std::string("custom"));
    p.set("batch", batch);
    p.set("C", c);
    p.set("H", hw);
    p.set("W", hw);
    p.set("K", k);
    p.set("R", r);
    p.set("S", r);
    p.set("stride", stride);
    p.set("pad", pad);
    return p;
}

Params direct(Params p, std::int64_t threads, std::int64_t kpt) {
    p.set("threads", threads);
    p.set("k_per_thread", kpt);
    return p;
}

Params im2win(Params p, std::int64_t tile_k, std::int64_t tile_p, std::int64_t tile_q, std::int64_t tile_c,
              std::int64_t kpt) {
    p.set("tile_k", tile_k);
    p.set("tile_p", tile_p);
    p.set("tile_q", tile_q);
    p.set("tile_c", tile_c);
    p.set("k_per_thread", kpt);
    return p;
}

Params gemm(Params p, std::int64_t bm, std::int64_t bn, std::int64_t bk, std::int64_t tm, std::int64_t tn) {
    p.set("BM", bm);
    p.set("BN", bn);
    p.set("BK", bk);
    p.set("TM", tm);
    p.set("TN", tn);
    return p;
}

double counter(const std::vector<Counter>& cs, const std::string& name) {
    const Counter* c = find_counter(cs, name);
    return c ? c->value : -1;
}

TEST(CudaEmuConvRegister, EmulatableKernelsOnBothBackendsLibraryCallsOnTheGpuOnly) {
    const Catalogue c = conv_catalogue();
    const Family& f = c.family("conv");
    for (const char* name : {"direct", "im2win", "implicit_gemm"}) {
        const Variant& emu = c.variant("conv", name, Backend::cuda_emu);
        EXPECT_TRUE(emu.gpu_only_reason.empty()) << name;
        EXPECT_NE(emu.description.find("cuda-emu"), std::string::npos);
        // The emulated sweep is small problems, never the paper's layers.
        EXPECT_NE(std::find(emu.default_axes.begin(), emu.default_axes.end(), "layer=custom"), emu.default_axes.end());
        EXPECT_NE(c.variant("conv", name, Backend::cuda).description.find("matched the reference on an NVIDIA H100"),
                  std::string::npos);
    }
    for (const auto& [name, library] : {std::pair{"im2col_gemm", "cuBLAS"}, {"cudnn", "cuDNN"}}) {
        EXPECT_EQ(f.find(name, Backend::cuda_emu), nullptr) << name;
        const Variant& gpu = c.variant("conv", name, Backend::cuda);
        EXPECT_NE(gpu.gpu_only_reason.find(library), std::string::npos) << gpu.gpu_only_reason;
    }
    // Math modes are stated: plain FP32, no TF32.
    EXPECT_NE(c.variant("conv", "im2col_gemm", Backend::cuda).description.find("CUBLAS_DEFAULT_MATH"),
              std::string::npos);
    EXPECT_NE(c.variant("conv", "cudnn", Backend::cuda).description.find("CUDNN_FMA_MATH"), std::string::npos);
}

TEST(CudaEmuConvRegister, ConstraintsKeepTheTunerToPointsTheKernelsRun) {
    const Catalogue c = conv_catalogue();
    const Family& f = c.family("conv");
    const Params p = shape(16, 16, 16, 3, 1, 1), big = shape(3, 64, 16, 11, 4, 0);
    const Space d = f.space(c.variant("conv", "direct", Backend::cuda_emu));
    EXPECT_EQ(d.violated(direct(p, 128, 4)), nullptr);
    EXPECT_NE(d.violated(direct(p, 96 + 16, 4)), nullptr);  // not whole warps
    EXPECT_NE(d.violated(direct(p, 128, 3)), nullptr);      // a tuner midpoint, no register tile
    const Space w = f.space(c.variant("conv", "im2win", Backend::cuda_emu));
    EXPECT_EQ(w.violated(im2win(p, 16, 4, 16, 2, 4)), nullptr);
    EXPECT_EQ(w.violated(im2win(big, 16, 4, 16, 2, 4)), nullptr);  // conv1's 11x11 at the defaults
    EXPECT_NE(w.violated(im2win(big, 64, 1, 32, 2, 4)), nullptr);  // ... but not with more filters
    EXPECT_NE(w.violated(im2win(p, 16, 4, 16, 2, 3)), nullptr);
    EXPECT_NE(w.violated(im2win(p, 12, 4, 16, 2, 8)), nullptr);  // tile_k % k_per_thread
    EXPECT_NE(w.violated(im2win(p, 32, 8, 32, 2, 4)), nullptr);  // 2048 threads
    EXPECT_NE(w.violated(im2win(p, 4, 1, 4, 2, 4)), nullptr);    // 4 threads
    const Space g = f.space(c.variant("conv", "implicit_gemm", Backend::cuda_emu));
    EXPECT_EQ(g.violated(gemm(p, 64, 64, 8, 4, 4)), nullptr);
    EXPECT_EQ(g.violated(gemm(p, 128, 128, 8, 8, 8)), nullptr);
    EXPECT_NE(g.violated(gemm(p, 64, 64, 8, 6, 4)), nullptr);     // TM
    EXPECT_NE(g.violated(gemm(p, 24, 64, 8, 8, 4)), nullptr);     // 3 x 16 threads: not whole warps
    EXPECT_NE(g.violated(gemm(p, 256, 256, 32, 8, 8)), nullptr);  // shared memory
    EXPECT_NE(g.violated(gemm(p, 256, 256, 8, 4, 4)), nullptr);   // 4096 threads
    EXPECT_NE(g.violated(gemm(p, 16, 16, 8, 4, 4)), nullptr);     // 16 threads
    EXPECT_EQ(g.violated(gemm(p, 128, 128, 8, 4, 8)), nullptr);   // 512 threads of 32 accumulators
    EXPECT_NE(g.violated(gemm(p, 256, 128, 8, 4, 8)), nullptr);   // ... but not 1024
}

TEST(CudaEmuConvRegister, ModelsCountFlopsBytesAndTheWorkspace) {
    const Catalogue c = conv_catalogue();
    const MemoryHierarchy host = detect_memory_hierarchy();
    const Params p = shape(8, 12, 10, 3, 2, 1, 2);
    const ConvProblem cp = ConvProblem::from(p);
    auto model = [&](const char* name, Backend b, const Params& point) {
        return c.variant("conv", name, b).model(point, host);
    };
    const auto d = model("direct", Backend::cuda_emu, direct(p, 128, 4));
    const auto w = model("im2win", Backend::cuda_emu, im2win(p, 16, 4, 16, 2, 4));
    const auto g = model("implicit_gemm", Backend::cuda_emu, gemm(p, 64, 64, 8, 4, 4));
    const auto col = model("im2col_gemm", Backend::cuda, p);
    const auto dnn = model("cudnn", Backend::cuda, p);
    for (const auto* m : {&d, &w, &g, &col, &dnn}) {
        EXPECT_EQ(counter(*m, "flops"), cp.flops());
        EXPECT_EQ(counter(*m, "bytes.min"), cp.min_bytes());
        EXPECT_GE(counter(*m, "bytes.dram"), 0.0);
    }
    for (const auto* m : {&d, &w, &g, &col}) {  // the GPU's levels, whatever the host's are
        EXPECT_GE(counter(*m, "bytes.l1"), counter(*m, "bytes.l2"));
        EXPECT_GE(counter(*m, "bytes.l2"), counter(*m, "bytes.dram"));
        EXPECT_EQ(find_counter(*m, "bytes.llc"), nullptr);
    }
    // P = Q = 6; the window tensor is N x C x P x (W + 2 pad) x R, im2col's N x C*R*S x P*Q.
    EXPECT_EQ(counter(w, "workspace.bytes"), 4.0 * 2 * 8 * 6 * (12 + 2) * 3);
    EXPECT_EQ(counter(col, "workspace.bytes"), 4.0 * 2 * 8 * 9 * 6 * 6);
    EXPECT_EQ(counter(d, "workspace.bytes"), 0.0);
    EXPECT_EQ(counter(g, "workspace.bytes"), 0.0);
    EXPECT_EQ(find_counter(dnn, "workspace.bytes"), nullptr);  // known at run time: in the detail
    // im2win's window tensor is written back to DRAM (and read back from L2, where it fits with
    // everything else); direct reads the input once per group of filters, implicit_gemm once per
    // filter tile.
    EXPECT_GT(counter(w, "bytes.dram"), counter(g, "bytes.dram"));
    EXPECT_GT(counter(d, "bytes.l1"), counter(g, "bytes.l1"));
}

// As measure_case drives an instance: the check passes, the emu counters of the checked run come
// with source emu, and the model's bytes.l1 is their global loads plus stores.
TEST(CudaEmuConvRegister, InstancesRunCheckAndReportTheTrafficTheModelPredicts) {
    const Catalogue c = conv_catalogue();
    const Family& f = c.family("conv");
    const Params p = shape(5, 11, 9, 3, 2, 1, 2);
    const std::pair<const char*, Params> points[] = {{"direct", direct(p, 64, 2)},
                                                     {"im2win", im2win(p, 8, 2, 8, 3, 2)},
                                                     {"implicit_gemm", gemm(p, 32, 32, 4, 2, 2)}};
    for (const auto& [name, point] : points) {
        SCOPED_TRACE(name);
        const auto w = f.make_workload(point, 11);
        const Variant& v = c.variant("conv", name, Backend::cuda_emu);
        auto inst = v.prepare(*w, point);
        inst->poison();
        inst->run();
        const Check ch = inst->check();
        EXPECT_TRUE(ch.ok) << ch.message;
        EXPECT_EQ(inst->detail(), "");
        const auto measured = inst->measured_counters();
        const Counter* loads = find_counter(measured, "emu.global_load_bytes");
        const Counter* stores = find_counter(measured, "emu.global_store_bytes");
        ASSERT_NE(loads, nullptr);
        ASSERT_NE(stores, nullptr);
        EXPECT_EQ(loads->source, CounterSource::emu);
        EXPECT_EQ(loads->value + stores->value, counter(v.model(point, detect_memory_hierarchy()), "bytes.l1"));
        EXPECT_GT(inst->run_timed(), 0.0);
    }
}

// A tuning outside the rules prepared as it is (a hand-written or replayed case skips the
// space's constraints): the device case refuses it, and the user is told.
TEST(CudaEmuConvRegister, ARuleTheDeviceCaseEnforcesIsAUsageError) {
    const Catalogue c = conv_catalogue();
    const Params p = direct(shape(3, 8, 4, 3, 1, 1), 48, 4);
    const auto w = c.family("conv").make_workload(p, 1);
    EXPECT_THROW(c.variant("conv", "direct", Backend::cuda_emu).prepare(*w, p), UsageError);
}

}  // namespace
}  // namespace memwall

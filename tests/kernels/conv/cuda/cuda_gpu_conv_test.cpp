// The CUDA conv variants on a real GPU (the cuda backend), against the float64 reference, the
// GPU-only ones (cuBLAS, cuDNN) included. Built always; it skips itself unless a CUDA device is
// present.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/backend.hpp"
#include "core/catalogue.hpp"
#include "kernels/conv/cuda/device_case.hpp"
#include "kernels/conv/register.hpp"
#include "tests/support/gpu_case.hpp"

namespace memwall {
namespace {

Params point(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t k, std::int64_t r, std::int64_t stride,
             std::int64_t pad) {
    Params p;
    p.set("layer", std::string("custom"));
    p.set("batch", n);
    p.set("C", c);
    p.set("H", h);
    p.set("W", h + 3);
    p.set("K", k);
    p.set("R", r);
    p.set("S", r);
    p.set("stride", stride);
    p.set("pad", pad);
    // Each kernel's default tuning.
    for (const auto& [name, value] : {std::pair{"threads", 128},
                                      {"k_per_thread", 4},
                                      {"tile_k", 16},
                                      {"tile_p", 4},
                                      {"tile_q", 16},
                                      {"tile_c", 2},
                                      {"BM", 64},
                                      {"BN", 64},
                                      {"BK", 8},
                                      {"TM", 4},
                                      {"TN", 4}})
        p.set(name, std::int64_t{value});
    return p;
}

// The cuda variant `name` at point p: run on a poisoned output, checked, then timed.
std::unique_ptr<Instance> checked_and_timed(const Catalogue& c, const char* name, const Workload& w, const Params& p) {
    SCOPED_TRACE(std::string(name) + " " + p.label());
    auto inst = c.variant("conv", name, Backend::cuda).prepare(w, p);
    test::expect_checked_and_timed(*inst);
    return inst;
}

TEST(CudaGpuConv, EveryVariantMatchesTheReferenceAndTimesWithEvents) {
    const BackendStatus st = probe_backend(Backend::cuda);
    if (!st.available) GTEST_SKIP() << "cuda backend unavailable: " << st.reason;
    Catalogue c;
    register_conv(c);
    const Family& f = c.family("conv");
    for (const Params& p :
         {point(2, 13, 30, 37, 3, 1, 1), point(3, 3, 61, 20, 11, 4, 2), point(1, 64, 14, 70, 5, 2, 0)}) {
        const auto w = f.make_workload(p, 3);
        for (const char* name : {"direct", "im2win", "implicit_gemm", "im2col_gemm", "cudnn"}) {
            const auto inst = checked_and_timed(c, name, *w, p);
            if (std::string(name) == "cudnn") {
                EXPECT_NE(inst->detail().find("cuDNN algorithm"), std::string::npos);
            }
        }
    }
}

// The tensor-core variants on the device: both dtypes, every compiled tile, channel counts no
// chunk divides.
TEST(CudaGpuConv, TensorCoreVariantsMatchTheReferenceOnEveryTile) {
    const BackendStatus st = probe_backend(Backend::cuda);
    if (!st.available) GTEST_SKIP() << "cuda backend unavailable: " << st.reason;
    Catalogue c;
    register_conv(c);
    const Family& f = c.family("conv");
    for (Params p : {point(2, 13, 30, 37, 3, 1, 1), point(1, 64, 14, 70, 5, 2, 0)})
        for (const char* dtype : {"bf16", "tf32"}) {
            p.set("dtype", std::string(dtype));
            const auto w = f.make_workload(p, 3);
            for (const conv_cuda::ConvTcTile& t : conv_cuda::kConvTcTiles)
                for (const char* name : {"implicit_gemm_tc", "im2win_tc"}) {
                    p.set("BM", std::int64_t{t.bm});
                    p.set("BN", std::int64_t{t.bn});
                    p.set("stages", std::int64_t{t.stages});
                    checked_and_timed(c, name, *w, p);
                }
        }
}

}  // namespace
}  // namespace memwall

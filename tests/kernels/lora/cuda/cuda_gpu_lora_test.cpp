// The CUDA lora variants on a real GPU (the cuda backend), against the float64 reference, fp32
// and bf16, the GPU-only bf16 tensor-core variants and the peer cublas_unfused included. Built
// always; it skips itself unless a CUDA device is present.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/catalogue.hpp"
#include "kernels/lora/register.hpp"
#include "tests/support/gpu_case.hpp"

namespace memwall {
namespace {

Params point(std::int64_t m, std::int64_t k, std::int64_t n, std::int64_t r, std::int64_t adapters,
             const char* dtype = "fp32") {
    Params p;
    p.set("shape", std::string("custom"));
    p.set("dtype", std::string(dtype));
    p.set("dropout", 0.1);
    p.set("alpha", 16.0);
    for (const auto& [name, value] : {std::pair{"M", m}, {"K", k}, {"N", n}, {"r", r}, {"adapters", adapters}})
        p.set(name, value);
    // The default tiling; for the tensor-core variants, their 64/64/4/3 tile.
    for (const auto& [name, value] :
         {std::pair{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}, {"warps", 4}, {"stages", 3}, {"group", 8}})
        p.set(name, std::int64_t{value});
    return p;
}

TEST(CudaGpuLora, EveryVariantMatchesTheReferenceAndTimesWithEvents) {
    const BackendStatus st = probe_backend(Backend::cuda);
    if (!st.available) GTEST_SKIP() << "cuda backend unavailable: " << st.reason;
    Catalogue c;
    register_lora(c);
    const Family& f = c.family("lora");
    for (const Params& p : {point(1000, 1024, 1000, 16, 1), point(777, 513, 1031, 5, 3), point(2048, 4096, 4096, 16, 4),
                            point(777, 513, 1031, 5, 3, "bf16"), point(777, 520, 1032, 16, 3, "bf16"),
                            point(2048, 4096, 4096, 16, 4, "bf16")}) {
        const auto w = f.make_workload(p, 3);
        std::vector<std::string> variants = {"base", "unfused", "fused", "multi_adapter", "cublas_unfused"};
        // The tensor-core variants take bf16 with K and N multiples of 8.
        if (p.str("dtype") == "bf16" && p.integer("K") % 8 == 0 && p.integer("N") % 8 == 0)
            for (const char* tc : {"base_tc", "unfused_tc", "fused_tc", "multi_adapter_tc"}) variants.push_back(tc);
        for (const std::string& name : variants) {
            SCOPED_TRACE(name + " " + p.label());
            auto inst = c.variant("lora", name, Backend::cuda).prepare(*w, p);
            test::expect_checked_and_timed(*inst);
        }
    }
}

}  // namespace
}  // namespace memwall

// The CUDA kv_offload variants on a real GPU (the cuda backend), against the float64 reference,
// zero_copy aligned and misaligned. Built always; it skips itself unless a CUDA device is
// present.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <string>

#include "core/backend.hpp"
#include "core/catalogue.hpp"
#include "kernels/kv_offload/register.hpp"
#include "tests/support/gpu_case.hpp"
#include "../kv_test_support.hpp"

namespace memwall {
namespace {

Params point(std::int64_t context, std::int64_t page_tokens, std::int64_t heads, std::int64_t head_dim, double select) {
    Params p = kv_test::small_params();
    p.set("context", context);
    p.set("page_tokens", page_tokens);
    p.set("heads", heads);
    p.set("head_dim", head_dim);
    p.set("select", select);
    p.set("steps", std::int64_t{4});
    for (const auto& [name, value] : {std::pair{"splits", 8}, {"warps", 4}, {"chunk_pages", 4}})
        p.set(name, std::int64_t{value});
    return p;
}

TEST(CudaGpuKvOffload, EveryVariantMatchesTheReferenceAndTimesWithEvents) {
    const BackendStatus st = probe_backend(Backend::cuda);
    if (!st.available) GTEST_SKIP() << "cuda backend unavailable: " << st.reason;
    kv_test::ScratchDir dir;
    ::setenv("MEMWALL_SCRATCH", dir.path.c_str(), 1);
    Catalogue c;
    register_kv_offload(c);
    const Family& f = c.family("kv_offload");
    for (const Params& base :
         {point(4096, 16, 4, 128, 0.125), point(8192, 64, 8, 64, 0.25), point(96, 3, 3, 32, 0.5)}) {
        const auto w = f.make_workload(base, 3);
        for (const char* name : {"resident", "zero_copy", "staged", "pipelined"})
            for (std::int64_t misalign : {0, 4}) {
                if (misalign != 0 && std::string(name) != "zero_copy") continue;
                Params p = base;
                p.set("misalign", misalign);
                SCOPED_TRACE(std::string(name) + " " + p.label());
                auto inst = c.variant("kv_offload", name, Backend::cuda).prepare(*w, p);
                test::expect_checked_and_timed(*inst);
            }
    }
    ::unsetenv("MEMWALL_SCRATCH");
}

}  // namespace
}  // namespace memwall

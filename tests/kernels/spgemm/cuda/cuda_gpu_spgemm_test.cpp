// The CUDA spgemm variants on a real GPU (the cuda backend), against the float64 reference, the
// peer cusparse included. Built always; it skips itself unless a CUDA device is present.
#include <gtest/gtest.h>

#include <string>

#include "core/backend.hpp"
#include "core/catalogue.hpp"
#include "kernels/spgemm/register.hpp"
#include "tests/support/gpu_case.hpp"

namespace memwall {
namespace {

Params point(const Catalogue& c, const std::string& matrix, std::int64_t scale, std::int64_t nx, bool sorted) {
    Params p;
    for (const Axis& a : c.family("spgemm").problem_axes) p.set(a.name, a.defaults.front());
    for (const char* v : {"rowwise_hash", "esc"})
        for (const Axis& a : c.variant("spgemm", v, Backend::cuda).tunables) p.set(a.name, a.defaults.front());
    p.set("matrix", matrix);
    p.set("scale", scale);
    p.set("nx", nx);
    p.set("sorted", std::int64_t{sorted});
    return p;
}

TEST(CudaGpuSpgemm, EveryVariantMatchesTheReferenceAndTimesWithEvents) {
    const BackendStatus st = probe_backend(Backend::cuda);
    if (!st.available) GTEST_SKIP() << "cuda backend unavailable: " << st.reason;
    Catalogue c;
    register_spgemm(c);
    const Family& f = c.family("spgemm");
    for (const Params& p :
         {point(c, "rmat", 14, 0, false), point(c, "poisson3d27", 0, 24, true), point(c, "rmat", 12, 0, true)}) {
        const auto w = f.make_workload(p, 3);
        for (const char* name : {"rowwise_hash", "esc", "cusparse"}) {
            SCOPED_TRACE(std::string(name) + " " + p.label());
            auto inst = c.variant("spgemm", name, Backend::cuda).prepare(*w, p);
            test::expect_checked_and_timed(*inst);
        }
    }
}

}  // namespace
}  // namespace memwall

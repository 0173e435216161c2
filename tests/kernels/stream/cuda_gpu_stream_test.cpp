// The CUDA stream kernel on a real GPU (the cuda backend). Built always; it skips itself unless
// a CUDA device is present.
#include <gtest/gtest.h>

#include "core/backend.hpp"
#include "core/catalogue.hpp"
#include "kernels/stream/register.hpp"

namespace memwall {
namespace {

TEST(CudaGpuStream, EveryOpMatchesTheReferenceAndTimesWithEvents) {
    const BackendStatus st = probe_backend(Backend::cuda);
    if (!st.available) GTEST_SKIP() << "cuda backend unavailable: " << st.reason;
    Catalogue c;
    register_stream(c);
    for (const char* op : {"copy", "scale", "add", "triad"}) {
        Params p;
        p.set("op", std::string(op));
        p.set("n", std::int64_t{(1 << 22) + 5});
        p.set("threads", std::int64_t{256});
        const auto w = c.family("stream").make_workload(p, 3);
        auto inst = c.variant("stream", "grid_stride", Backend::cuda).prepare(*w, p);
        inst->poison();
        inst->run();
        const Check ch = inst->check();
        EXPECT_TRUE(ch.ok) << op << ": " << ch.message;
        EXPECT_GT(inst->run_timed(), 0.0) << op;
    }
}

}  // namespace
}  // namespace memwall

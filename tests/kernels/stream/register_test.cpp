// The registered family: every variant against the reference (register.cpp).
#include <gtest/gtest.h>

#include "core/catalogue.hpp"
#include "kernels/stream/register.hpp"
#include "tests/kernels/stream/points.hpp"

namespace memwall {
namespace {

using stream_test::ops;
using stream_test::point;

// Every variant of the family, on cpu and cuda-emu, for every op.
TEST(StreamVariants, EveryVariantMatchesTheReference) {
    Catalogue c;
    register_stream(c);
    const Family& f = c.family("stream");
    for (const std::string& op : ops) {
        for (std::int64_t n : {1, 37, 4099}) {
            const Params p = point(op, n);
            const auto w = f.make_workload(p, 3);
            for (const Variant& v : f.variants) {
                if (v.backend == Backend::cuda) continue;  // tests/kernels/stream: no GPU here
                Params config = p;
                for (const Axis& t : v.tunables) config.set(t.name, t.defaults.front());
                auto inst = v.prepare(*w, config);
                inst->poison();
                inst->run();
                const Check ch = inst->check();
                EXPECT_TRUE(ch.ok) << v.name << "/" << to_string(v.backend) << " " << op << " n=" << n << ": "
                                   << ch.message;
                EXPECT_GT(inst->run_timed(), 0.0);
            }
        }
    }
}

}  // namespace
}  // namespace memwall

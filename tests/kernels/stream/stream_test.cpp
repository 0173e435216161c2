// The stream family: the workload and its check, the byte model, and every variant on every
// backend this machine has against the float64 reference, on sizes that end in a partial
// vector and start at an odd alignment.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "cuda_emu/traffic.hpp"
#include "kernels/stream/cuda/device_case.hpp"
#include "kernels/stream/register.hpp"
#include "kernels/stream/stream.hpp"

namespace memwall {
namespace {

Params point(const std::string& op, std::int64_t n) {
    Params p;
    p.set("op", op);
    p.set("n", n);
    return p;
}

const std::vector<std::string> ops{"copy", "scale", "add", "triad"};

double counter(const std::vector<Counter>& cs, const std::string& name) {
    const Counter* c = find_counter(cs, name);
    return c ? c->value : std::nan("");
}

TEST(StreamProblem, FlopsAndStreamsCount) {
    EXPECT_EQ(StreamProblem::from(point("copy", 10)).flops(), 0);
    EXPECT_EQ(StreamProblem::from(point("scale", 10)).flops(), 10);
    EXPECT_EQ(StreamProblem::from(point("add", 10)).flops(), 10);
    EXPECT_EQ(StreamProblem::from(point("triad", 10)).flops(), 20);
    EXPECT_EQ(StreamProblem::from(point("copy", 10)).stream_bytes(), 80);
    EXPECT_EQ(StreamProblem::from(point("triad", 10)).stream_bytes(), 120);
    EXPECT_THROW(StreamProblem::from(point("fma", 10)), UsageError);
    EXPECT_THROW(StreamProblem::from(point("copy", 0)), UsageError);
}

TEST(StreamWorkload, InputsAreNeverZeroAndTheCheckCatchesWrongAndUnwritten) {
    const StreamWorkload w(StreamProblem::from(point("triad", 1000)), 7);
    std::vector<float> z(1000);
    for (int i = 0; i < 1000; ++i) {
        EXPECT_GE(w.x()[i], 1.0f);
        EXPECT_GE(w.y()[i], 1.0f);
        z[i] = w.x()[i] + stream_scalar * w.y()[i];
    }
    const Check ok = w.check(z.data());
    EXPECT_TRUE(ok.ok) << ok.message;
    EXPECT_LT(ok.error, StreamWorkload::tolerance);
    z[500] *= 1.001f;
    EXPECT_FALSE(w.check(z.data()).ok);
    z[500] = std::numeric_limits<float>::quiet_NaN();
    const Check nan = w.check(z.data());
    EXPECT_FALSE(nan.ok);
    EXPECT_EQ(nan.message, "z[500] is nan: not written or not finite");
}

TEST(StreamModel, WriteAllocateAddsAReadOfZ) {
    MemoryHierarchy mh;
    mh.caches = {{"l1", 32 << 10, 1}, {"l2", 1 << 20, 1}, {"llc", 32 << 20, 2}};
    mh.cpus = 2;
    const StreamProblem big = StreamProblem::from(point("triad", 1 << 25));
    const auto loop = stream_model(big, mh, true), nt = stream_model(big, mh, false);
    const double n = 1 << 25;
    EXPECT_EQ(counter(loop, "flops"), 2 * n);
    EXPECT_EQ(counter(loop, "bytes.min"), 12 * n);
    EXPECT_EQ(counter(loop, "bytes.dram"), 16 * n);
    EXPECT_EQ(counter(nt, "bytes.dram"), 12 * n);
    // 64 Ki elements: x and z are 512 KiB, 256 KiB per thread, which fits l2; nothing crosses the
    // llc, and every byte crosses l2 (x read, z read for the write-allocate and written).
    const auto small = stream_model(StreamProblem::from(point("copy", 1 << 16)), mh, true);
    EXPECT_EQ(counter(small, "bytes.dram"), 0);
    EXPECT_EQ(counter(small, "bytes.l2"), 12.0 * (1 << 16));
}

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

// Both ISAs' kernels where the host runs them (the AVX-512 one only where it has it).
TEST(StreamCpuKernels, EveryIsaAnyAlignmentOfZAndAnyLength) {
    using Kernel = void (*)(const StreamProblem&, const float*, const float*, float*);
    std::vector<std::pair<const char*, Kernel>> kernels = {{"loop avx2", stream_loop<Isa::avx2>},
                                                           {"nontemporal avx2", stream_nontemporal<Isa::avx2>}};
    if (host_isa() == Isa::avx512) {
        kernels.emplace_back("loop avx512", stream_loop<Isa::avx512>);
        kernels.emplace_back("nontemporal avx512", stream_nontemporal<Isa::avx512>);
    }
    for (const auto& [name, kernel] : kernels)
        for (std::int64_t n : {1, 15, 16, 17, 1000}) {
            const StreamWorkload w(StreamProblem::from(point("triad", n)), 2);
            for (std::size_t shift = 0; shift < 4; ++shift) {
                std::vector<float> buffer(static_cast<std::size_t>(n) + 64, std::numeric_limits<float>::quiet_NaN());
                float* z = buffer.data() + shift;
                kernel(w.problem(), w.x(), w.y(), z);
                const Check ch = w.check(z);
                EXPECT_TRUE(ch.ok) << name << " n=" << n << " shift=" << shift << ": " << ch.message;
                EXPECT_TRUE(std::isnan(z[n])) << name << " wrote past the end, n=" << n;
            }
        }
}

TEST(StreamCudaEmu, TriadMovesExactlyThreeArrays) {
    const std::int64_t n = 5000;
    const StreamWorkload w(StreamProblem::from(point("triad", n)), 1);
    auto device = stream_cuda::cuda_emu::make_device_case({StreamOp::triad, n, stream_scalar}, 128, w.x(), w.y());
    device->poison();
    emu::TrafficScope scope;
    device->run();
    std::vector<float> z(static_cast<std::size_t>(n));
    device->download(z.data());
    EXPECT_TRUE(w.check(z.data()).ok);
    const auto cs = emu::traffic_counters(scope.stats());
    EXPECT_EQ(counter(cs, "emu.global_load_bytes"), 2 * 4 * n);
    EXPECT_EQ(counter(cs, "emu.global_store_bytes"), 4 * n);
    // Cold: every sector read once from DRAM, and z written back.
    EXPECT_EQ(counter(cs, "dram__bytes_read.sum"), 2 * 4 * n);
    EXPECT_EQ(counter(cs, "dram__bytes_write.sum"), 4 * n);
}

TEST(StreamCudaEmu, RulesOfTheLaunchAreUsageErrors) {
    Catalogue c;
    register_stream(c);
    const Params p = point("copy", 100);
    const auto w = c.family("stream").make_workload(p, 1);
    Params config = p;
    config.set("threads", std::int64_t{100});
    EXPECT_THROW(c.variant("stream", "grid_stride", Backend::cuda_emu).prepare(*w, config), UsageError);
}

}  // namespace
}  // namespace memwall

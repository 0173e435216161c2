// The CPU kernels of both ISAs (cpu_loop.cpp, cpu_nontemporal.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/isa.hpp"
#include "kernels/stream/stream.hpp"
#include "tests/kernels/stream/points.hpp"

namespace memwall {
namespace {

using stream_test::point;

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

}  // namespace
}  // namespace memwall

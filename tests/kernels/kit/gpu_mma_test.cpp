// The layout probes of kit/cuda/mma.cuh on a GPU (nvcc's build of mma_probe.cu), against the same
// tables as under cuda-emu (mma_test.cpp): the emulator's layouts equal the hardware's when these
// pass. Built always; each test skips itself unless a CUDA device is present.
#include <gtest/gtest.h>

#include "core/backend.hpp"
#include "mma_checks.hpp"

namespace memwall::kit_test {
namespace {

const Probes gpu{&cuda_gpu::ldmatrix_probe, &cuda_gpu::stmatrix_probe, &cuda_gpu::mma_probe, &cuda_gpu::convert_probe};

#define MEMWALL_REQUIRE_GPU()                                                 \
    if (const BackendStatus st = probe_backend(Backend::cuda); !st.available) \
    GTEST_SKIP() << "cuda backend unavailable: " << st.reason

TEST(MmaGpu, LdmatrixFollowsTheTable) {
    MEMWALL_REQUIRE_GPU();
    check_ldmatrix(gpu);
}
TEST(MmaGpu, StmatrixFollowsTheTable) {
    MEMWALL_REQUIRE_GPU();
    check_stmatrix(gpu, false);
}
TEST(MmaGpu, StmatrixOfShufflesFollowsTheTable) {
    MEMWALL_REQUIRE_GPU();
    check_stmatrix(gpu, true);
}
TEST(MmaGpu, MmaOfExactInputsIsExact) {
    MEMWALL_REQUIRE_GPU();
    check_mma_exact(gpu);
}
TEST(MmaGpu, MmaOfRoundedInputsMatchesFloat64) {
    MEMWALL_REQUIRE_GPU();
    check_mma_rounded(gpu);
}
TEST(MmaGpu, ConversionsRoundAsPtxSays) {
    MEMWALL_REQUIRE_GPU();
    check_conversions(gpu);
}

}  // namespace
}  // namespace memwall::kit_test

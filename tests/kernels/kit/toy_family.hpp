// A toy family for the kit's tests: toy/scale, out = 2 * in, through the kit's CUDA adapter.
#pragma once

#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "kernels/kit/cuda_variants.hpp"

namespace memwall::kit_test {

// Axes n (elements) and bf16 (element type on the device); inputs 0.5 + i % 7, exact in bf16.
struct ScaleWorkload : Workload {
    std::vector<float> in;
    Check check(const float* out) const;
};

// The family, without variants.
Family toy_family();
// Its one kernel for the kit; add_cuda_variants gives its cuda-emu and cuda variants.
kit::CudaKernel scale_kernel();
// The family with both variants of scale_kernel (only cuda when `gpu_only_reason` is given).
Catalogue toy_catalogue(const std::string& gpu_only_reason = "");

}  // namespace memwall::kit_test

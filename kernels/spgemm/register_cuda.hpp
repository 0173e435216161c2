#pragma once

#include "core/catalogue.hpp"
#include "kernels/spgemm/cuda/device_case.hpp"
#include "kernels/spgemm/spgemm.hpp"

namespace memwall {

// The CUDA spgemm variants: rowwise_hash and esc on cuda-emu and cuda, the peer cusparse on
// cuda only. Called by register_spgemm.
void register_spgemm_cuda(Catalogue& c);

// A point's tuning for a CUDA kernel (its tunables; defaults for those it lacks).
spgemm_cuda::Tuning spgemm_cuda_tuning(spgemm_cuda::Algorithm algorithm, const Params& point);

// The kernels' global-memory traffic as a byte model over a GPU's levels (cuda-emu's L1 and
// L2 sizes, H100's by default): flops 2 x products, bytes.min (A, B and C once, int32 indices),
// workspace.bytes (what the device case allocates besides A, B and C), bytes.l1 (the bytes the
// threads request, an estimate built from the kernels' loops), with the input counters.
std::vector<Counter> spgemm_cuda_model(spgemm_cuda::Algorithm algorithm, const SpgemmWorkload& w,
                                       const spgemm_cuda::Tuning& t);

}  // namespace memwall

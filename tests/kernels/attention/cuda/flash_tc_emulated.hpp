// flash_tc on cuda-emu as its tests run it (flash_blocksparse is flash_tc under a block mask):
// the tuning of one compiled tile, and one run on a poisoned output, checked, with its traffic.
#pragma once

#include <vector>

#include "cuda_emu/traffic.hpp"
#include "kernels/attention/attention.hpp"
#include "kernels/attention/cuda/device_case.hpp"
#include "kernels/attention/register_cuda.hpp"

namespace memwall {

inline attention_cuda::Tuning tuning_of(const attention_cuda::FlashTcTile& t) {
    return attention_cuda::Tuning{
        .algorithm = attention_cuda::Algorithm::flash_tc, .br = t.br, .bc = t.bc, .warps = t.warps, .stages = t.stages};
}

struct Outcome {
    Check check;
    emu::TrafficStats traffic;
};

// Problem `p` (w's, or w's inputs under another mask) with tile `t`, checked against `w`.
inline Outcome run_emulated(const AttentionWorkload& w, const AttentionProblem& p, const attention_cuda::FlashTcTile& t,
                            const emu::EmulationOptions& options = {}) {
    auto device = attention_cuda::cuda_emu::make_device_case(cuda_shape(p), tuning_of(t),
                                                             {w.q().data(), w.k().data(), w.v().data()}, options);
    device->poison();
    emu::TrafficScope scope;
    device->run();
    const emu::TrafficStats traffic = scope.stats();
    std::vector<float> o(p.q_size());
    device->download(o.data());
    return {w.check(o.data()), traffic};
}

}  // namespace memwall

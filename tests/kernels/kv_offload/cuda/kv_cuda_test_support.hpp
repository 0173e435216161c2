// What the CUDA kv_offload tests share: problems small enough for emulation, and one checked run
// of a variant on cuda-emu with its traffic.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda_emu/traffic.hpp"
#include "kernels/kv_offload/cuda/device_case.hpp"
#include "kernels/kv_offload/cuda/traffic_model.hpp"
#include "kernels/kv_offload/kv_offload.hpp"
#include "kernels/kv_offload/register_cuda.hpp"
#include "../kv_test_support.hpp"

namespace memwall::kv_cuda_test {

using kv_cuda::Method;
using kv_cuda::Tuning;

inline KvProblem problem(std::int64_t context, std::int64_t page_tokens, std::int64_t heads, std::int64_t head_dim,
                         double select, double reuse, std::int64_t steps) {
    KvProblem p;
    p.context = context;
    p.page_tokens = page_tokens;
    p.heads = heads;
    p.head_dim = head_dim;
    p.select = select;
    p.reuse = reuse;
    p.steps = steps;
    return p;
}

inline std::string label(const KvProblem& p) {
    return "context " + std::to_string(p.context) + " page_tokens " + std::to_string(p.page_tokens) + " heads " +
           std::to_string(p.heads) + " head_dim " + std::to_string(p.head_dim) + " selected " +
           std::to_string(p.selected()) + " steps " + std::to_string(p.steps);
}

inline const char* name(Method m) {
    switch (m) {
        case Method::resident: return "resident";
        case Method::zero_copy: return "zero_copy";
        case Method::staged: return "staged";
        case Method::pipelined: return "pipelined";
    }
    return "?";
}

inline const std::vector<Method> methods = {Method::resident, Method::zero_copy, Method::staged, Method::pipelined};

// The emulated default; 3-token pages of 32-wide heads over 3 steps; a single page a step of
// 128-wide heads; 256-wide heads.
inline const std::vector<KvProblem> problems = {
    problem(256, 16, 2, 64, 0.25, 0.5, 2),
    problem(96, 3, 3, 32, 0.5, 0.25, 3),
    problem(64, 8, 1, 128, 0.125, 0, 2),
    problem(32, 4, 1, 256, 0.25, 0.5, 2),
};

struct Emulated {
    Check check;
    emu::TrafficStats traffic;  // every launch of the forward pass
};

// One forward pass of every step on a poisoned output, checked against the float64 reference.
inline Emulated run_emulated(const KvProblem& p, Method m, const Tuning& t, const emu::EmulationOptions& options = {}) {
    kv_test::ScratchDir dir;
    const KvWorkload w(p, 7, dir.path);
    std::vector<std::int32_t> ids;
    auto device = kv_cuda::cuda_emu::make_device_case(cuda_shape(p), m, t, cuda_inputs(w, ids), options);
    device->poison();
    Emulated r;
    {
        emu::TrafficScope scope;
        device->run();
        r.traffic = scope.stats();
    }
    std::vector<float> out(device->output_size());
    device->download(out.data());
    r.check = w.check(out.data());
    return r;
}

}  // namespace memwall::kv_cuda_test

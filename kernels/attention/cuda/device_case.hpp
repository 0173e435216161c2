// The host side of the CUDA attention kernels (naive.cuh, flash.cuh, decode_splitkv.cuh): the
// problem and tuning as they take them, and one case's device buffers and forward pass (a
// kit::DeviceCase), built twice from attention_forward.cu: for cuda-emu (namespace cuda_emu,
// host compiler) and for GPUs (cuda_gpu, nvcc). C++17 and free of CUDA headers, so that both
// nvcc and the host side (register_cuda.cpp) include it.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

#include "cuda_emu/options.hpp"
#include "kernels/kit/device_case.hpp"

namespace memwall::attention_cuda {

// The element type of Q, K, V and O in device memory. Arithmetic, softmax and the workspaces
// (naive's scores, decode's partial outputs) are fp32 for both.
enum class Dtype { fp32, bf16 };

constexpr std::size_t element_bytes(Dtype t) { return t == Dtype::bf16 ? 2 : 4; }

// The attention problem as the kernels see it: Q, O [heads, seq_q, head_dim], K, V
// [heads, seq_k, head_dim], row-major in `dtype`; causal masks bottom-right aligned (query i
// sees keys j <= i + seq_k - seq_q), as memwall::AttentionProblem.
struct Shape {
    int heads = 1;  // batch * heads
    int seq_q = 1;
    int seq_k = 1;
    int head_dim = 64;
    int causal = 0;
    float scale = 0.125f;  // 1 / sqrt(head_dim)
    Dtype dtype = Dtype::fp32;
};

enum class Algorithm { naive, flash, decode_splitkv };

struct Tuning {
    Algorithm algorithm = Algorithm::flash;
    int br = 64;     // flash: query rows per block
    int bc = 64;     // flash: keys per K/V tile
    int warps = 4;   // flash: warps per block, each owning br / warps query rows
    int splits = 1;  // decode_splitkv: key ranges attended to by separate blocks
};

inline constexpr std::size_t max_shared_bytes = 227 * 1024;  // opt-in per block, sm_90
inline constexpr int max_grid_yz = 65535;                      // heads run along grid y or z
inline constexpr int decode_threads = 128;                     // per decode block, >= head_dim

// Dynamic shared memory of a flash block: the Q tile, the K tile (rows padded by one float so
// that lanes reading one column of different keys hit different banks), the V tile, the
// probability tile, the output accumulator, and the running max and sum of each row.
constexpr std::size_t flash_shared_bytes(int br, int bc, int head_dim) {
    const auto r = static_cast<std::size_t>(br), c = static_cast<std::size_t>(bc),
               d = static_cast<std::size_t>(head_dim);
    return 4 * (r * d + c * (d + 1) + c * d + r * c + r * d + 2 * r);
}

// Device floats beside Q, K, V and O: naive's score matrix, decode's partial outputs and
// log-sum-exps; flash needs none.
inline std::size_t workspace_floats(const Shape& s, const Tuning& t) {
    const auto h = static_cast<std::size_t>(s.heads);
    switch (t.algorithm) {
        case Algorithm::naive:
            return h * static_cast<std::size_t>(s.seq_q) * static_cast<std::size_t>(s.seq_k);
        case Algorithm::flash: return 0;
        case Algorithm::decode_splitkv:
            return h * static_cast<std::size_t>(t.splits) * static_cast<std::size_t>(s.head_dim + 1);
    }
    return 0;
}

// Throws std::invalid_argument naming the first rule (shape, tuning) breaks.
inline void validate(const Shape& s, const Tuning& t) {
    auto require = [](bool ok, const char* rule) {
        if (!ok) throw std::invalid_argument(std::string("cuda attention: ") + rule);
    };
    require(s.heads >= 1 && s.seq_q >= 1 && s.seq_k >= 1, "heads, seq_q and seq_k must be positive");
    require(s.heads <= max_grid_yz, "batch * heads must be at most 65535 (grid limit)");
    require(s.head_dim == 64 || s.head_dim == 128, "head_dim must be 64 or 128");
    switch (t.algorithm) {
        case Algorithm::naive: break;
        case Algorithm::flash:
            require(t.br >= 1 && t.bc >= 1, "Br and Bc must be positive");
            require(t.warps >= 1 && t.warps <= 32, "warps must be 1 to 32");
            require(t.br % t.warps == 0, "Br must be a multiple of warps");
            require(flash_shared_bytes(t.br, t.bc, s.head_dim) <= max_shared_bytes,
                    "the flash tiles need more than 227 KB of shared memory");
            break;
        case Algorithm::decode_splitkv:
            require(s.seq_q == 1, "decode_splitkv needs seq_q = 1");
            require(t.splits >= 1 && t.splits <= max_grid_yz, "num_splits must be 1 to 65535");
            break;
    }
}

// Host copies of the inputs (AttentionWorkload's q, k, v), fp32 whatever the Shape's dtype:
// the device case rounds them to it (exactly, for a bf16 workload's inputs).
struct Inputs {
    const float* q = nullptr;
    const float* k = nullptr;
    const float* v = nullptr;
};

// One case on a device: its output is O (heads * seq_q * head_dim floats, converted from the
// dtype). Errors throw std::runtime_error (CUDA calls) or memwall::cuda::LaunchError (launches).
using kit::DeviceCase;

namespace cuda_emu {
// On cuda-emu's arena; `options` sets block order, barrier rule and the cache models.
std::unique_ptr<DeviceCase> make_device_case(const Shape& s, const Tuning& t, const Inputs& in,
                                             const emu::EmulationOptions& options = {});
}  // namespace cuda_emu

namespace cuda_gpu {
// On the current CUDA device (built by nvcc; checked on an H100, docs/gpu-runs/).
std::unique_ptr<DeviceCase> make_device_case(const Shape& s, const Tuning& t, const Inputs& in);
}  // namespace cuda_gpu

}  // namespace memwall::attention_cuda

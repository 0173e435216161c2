// The host side of the CUDA attention kernels (naive.cuh, flash.cuh, decode_splitkv.cuh): the
// problem and tuning as they take them, and one case's device buffers and forward pass (a
// kit::DeviceCase), built twice from device_cases.cu: for cuda-emu (namespace cuda_emu,
// host compiler) and for GPUs (cuda_gpu, nvcc). C++17 and free of CUDA headers, so that both
// nvcc and the host side (register_cuda.cpp) include it.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

#include "cuda_emu/options.hpp"
#include "kernels/attention/cuda/block_mask.hpp"
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
    BlockMask mask;  // flash_tc alone takes one (flash_blocksparse); the others, kind none
};

enum class Algorithm { naive, flash, flash_tc, decode_splitkv };

struct Tuning {
    Algorithm algorithm = Algorithm::flash;
    int br = 64;     // flash: query rows per block
    int bc = 64;     // flash: keys per K/V tile
    int warps = 4;   // flash: warps per block, each owning br / warps query rows
    int stages = 2;  // flash_tc: shared-memory buffers of K and V tiles in flight
    int splits = 1;  // decode_splitkv: key ranges attended to by separate blocks
};

inline constexpr std::size_t kMaxSharedBytes = 227 * 1024;  // opt-in per block, sm_90
inline constexpr int kMaxGridYz = 65535;                    // heads run along grid y or z
inline constexpr int kDecodeThreads = 128;                  // per decode block, >= head_dim

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
        case Algorithm::naive: return h * static_cast<std::size_t>(s.seq_q) * static_cast<std::size_t>(s.seq_k);
        case Algorithm::flash:
        case Algorithm::flash_tc: return 0;
        case Algorithm::decode_splitkv:
            return h * static_cast<std::size_t>(t.splits) * static_cast<std::size_t>(s.head_dim + 1);
    }
    return 0;
}

// flash_tc (flash_tc.cuh): FlashAttention-2 on bf16 tensor cores. Each warp owns 16 query rows,
// so Br = 16 * warps; K and V tiles of Bc keys come through `stages` shared-memory buffers.
// Every tile is a separate compiled kernel (three builds each: emu, sm_80, sm_90), so only these
// are built; registers bound them too (O accumulators d/2 and scores Bc/2 floats per thread).
struct FlashTcTile {
    int head_dim, br, bc, warps, stages;
};
inline constexpr FlashTcTile kFlashTcTiles[] = {
    {64, 64, 64, 4, 2},  {64, 128, 64, 8, 2},  {64, 128, 128, 8, 2},
    {128, 64, 64, 4, 2}, {128, 128, 64, 8, 2}, {128, 128, 64, 8, 3},
};

// The compiled tile of (head_dim, tuning), or nullptr.
inline const FlashTcTile* flash_tc_tile(int head_dim, const Tuning& t) {
    for (const FlashTcTile& x : kFlashTcTiles)
        if (x.head_dim == head_dim && x.br == t.br && x.bc == t.bc && x.warps == t.warps && x.stages == t.stages)
            return &x;
    return nullptr;
}

// The compiled tiles as one line, for messages: "d=64: Br/Bc/warps/stages 64/64/4/2, ...".
inline std::string flash_tc_tile_list() {
    std::string out;
    for (const FlashTcTile& x : kFlashTcTiles)
        out += (out.empty() ? "" : ", ") + std::string("d=") + std::to_string(x.head_dim) + " " + std::to_string(x.br) +
               "/" + std::to_string(x.bc) + "/" + std::to_string(x.warps) + "/" + std::to_string(x.stages);
    return out;
}

// Dynamic shared memory of a flash_tc block: the Q tile (reused for the output) and `stages`
// K and V tiles, bf16.
constexpr std::size_t flash_tc_shared_bytes(int br, int bc, int head_dim, int stages) {
    return 2 * static_cast<std::size_t>(head_dim) *
           (static_cast<std::size_t>(br) + 2 * static_cast<std::size_t>(stages) * static_cast<std::size_t>(bc));
}

// Throws std::invalid_argument naming the first rule (shape, tuning) breaks.
inline void validate(const Shape& s, const Tuning& t) {
    auto require = [](bool ok, const char* rule) {
        if (!ok) throw std::invalid_argument(std::string("cuda attention: ") + rule);
    };
    require(s.heads >= 1 && s.seq_q >= 1 && s.seq_k >= 1, "heads, seq_q and seq_k must be positive");
    require(s.heads <= kMaxGridYz, "batch * heads must be at most 65535 (grid limit)");
    require(s.head_dim == 64 || s.head_dim == 128, "head_dim must be 64 or 128");
    require(s.mask.kind == MaskKind::none || t.algorithm == Algorithm::flash_tc, "only flash_tc takes a block mask");
    require(s.mask.kind == MaskKind::none || (s.mask.block % t.br == 0 && s.mask.block % t.bc == 0),
            "Br and Bc must divide the block mask's block");
    switch (t.algorithm) {
        case Algorithm::naive: break;
        case Algorithm::flash:
            require(t.br >= 1 && t.bc >= 1, "Br and Bc must be positive");
            require(t.warps >= 1 && t.warps <= 32, "warps must be 1 to 32");
            require(t.br % t.warps == 0, "Br must be a multiple of warps");
            require(flash_shared_bytes(t.br, t.bc, s.head_dim) <= kMaxSharedBytes,
                    "the flash tiles need more than 227 KB of shared memory");
            break;
        case Algorithm::flash_tc:
            require(s.dtype == Dtype::bf16, "flash_tc takes bf16 (dtype=bf16): its tensor cores multiply bf16");
            if (!flash_tc_tile(s.head_dim, t))
                throw std::invalid_argument("cuda attention: flash_tc has no compiled tile d=" +
                                            std::to_string(s.head_dim) + " Br/Bc/warps/stages " + std::to_string(t.br) +
                                            "/" + std::to_string(t.bc) + "/" + std::to_string(t.warps) + "/" +
                                            std::to_string(t.stages) + " (compiled: " + flash_tc_tile_list() + ")");
            break;
        case Algorithm::decode_splitkv:
            require(s.seq_q == 1, "decode_splitkv needs seq_q = 1");
            require(t.splits >= 1 && t.splits <= kMaxGridYz, "num_splits must be 1 to 65535");
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

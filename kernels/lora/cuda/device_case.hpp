// The host side of the CUDA lora kernels (down_project.cuh, gemm.cuh, gemm_tc.cuh, passes.cuh):
// the problem and tuning as they take them, the rules a case must keep, its shared memory and
// workspace, and the device-case factories. device_cases.cu and lora_tc.cu are built twice
// (cuda_emu, host compiler; cuda_gpu, nvcc); cublas_unfused.cu (cuBLAS) only for GPUs. C++17 and free of CUDA
// headers, so that nvcc and the host side (register_cuda.cpp) both include it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "cuda_emu/options.hpp"
#include "kernels/kit/device_case.hpp"
#include "kernels/kit/register_tiling.hpp"

namespace memwall::lora_cuda {

// memwall::LoraProblem as the kernels see it (row-major): X M×K, W K×N, A_a K×r and B_a r×N
// stacked over the adapters, the dropout mask of mask_words 32-bit words per token, Y M×N, in
// float or, with bf16, in __nv_bfloat16 (arithmetic in float). segment_begin follows
// LoraProblem's equal contiguous runs of tokens per adapter.
struct Shape {
    int m = 1, k = 1, n = 1, r = 1, adapters = 1;
    bool bf16 = false;
    float keep_scale = 1;  // 1 / (1 - p): dropout's scale of kept elements
    float alpha = 1;       // the adapters' term's scale
    int mask_words() const { return (k + 31) / 32; }
    int segment_begin(int a) const { return static_cast<int>(static_cast<long long>(a) * m / adapters); }
};

enum class Method { base, unfused, fused, multi_adapter, cublas_unfused };

// The tiled GEMM's blocking (gemm.cuh): BM×BN output tiles, BK-deep shared-memory stages, a
// TM×TN register tile per thread. Every method but cublas_unfused runs its GEMMs with it.
struct Tuning {
    int bm = 64, bn = 64, bk = 8;
    int tm = 4, tn = 4;
    // multi_adapter: adapters per batched call (one down-projection and one GEMM each).
    int group = 8;
    // The calls multi_adapter makes.
    int calls(int adapters) const { return (adapters + group - 1) / group; }
};

inline constexpr std::size_t kMaxSharedBytes = 48 * 1024;  // without the opt-in: any sm_80+ GPU
inline constexpr int kMaxGridYz = 65535;
inline constexpr int kMaxRank = 256;      // the down-projection keeps r / 32 columns per lane in registers
inline constexpr int kDownWarps = 4;      // down-projection: tokens (a warp each) per block
inline constexpr int kPassThreads = 256;  // dropout and scaled add, per block

using kit::register_tile;
constexpr int gemm_threads(const Tuning& t) { return kit::register_tiled_threads(t.bm, t.bn, t.tm, t.tn); }
// X's tile transposed (rows padded by one float against bank conflicts), W's tile, and the tile
// rows' adapters for the epilogue.
constexpr std::size_t gemm_shared_bytes(const Tuning& t) {
    return 4 * (static_cast<std::size_t>(t.bk) * static_cast<std::size_t>(t.bm + 1 + t.bn) +
                static_cast<std::size_t>(t.bm));
}

// Elements the device allocates beside the inputs and Y, in the element type: S (M×r) for every
// method with an adapter term, and the unfused passes' X' (M×K) and T (M×N).
inline std::size_t workspace_elements(const Shape& s, Method m) {
    const auto z = [](int x) { return static_cast<std::size_t>(x); };
    switch (m) {
        case Method::base: return 0;
        case Method::fused:
        case Method::multi_adapter: return z(s.m) * z(s.r);
        case Method::unfused:
        case Method::cublas_unfused: return z(s.m) * (z(s.k) + z(s.r) + z(s.n));
    }
    return 0;
}

// Throws std::invalid_argument naming the first rule the shape or the tuning breaks.
inline void validate(const Shape& s, const Tuning& t) {
    auto require = [](bool ok, const std::string& rule) {
        if (!ok) throw std::invalid_argument("cuda lora: " + rule);
    };
    require(s.m >= 1 && s.k >= 1 && s.n >= 1 && s.r >= 1 && s.adapters >= 1 && s.adapters <= s.m,
            "sizes must be positive and adapters at most M");
    require(s.r <= kMaxRank, "r must be at most 256 (the down-projection keeps a token's S row in registers)");
    require(register_tile(t.tm) && register_tile(t.tn), "TM and TN must be 1, 2, 4 or 8");
    require(t.group >= 1, "group (adapters per batched call) must be positive");
    require(t.bk >= 1 && t.bm >= t.tm && t.bn >= t.tn && t.bm <= 1024 && t.bn <= 1024,
            "BK must be positive and BM, BN at least TM, TN and at most 1024");
    require(t.bm % t.tm == 0 && t.bn % t.tn == 0, "BM and BN must be multiples of TM and TN");
    require(gemm_threads(t) % 32 == 0 && gemm_threads(t) <= kit::register_tiled_max_threads(t.tm, t.tn),
            "(BM/TM) * (BN/TN) threads must be a multiple of 32 up to 1024 (512 when TM * TN is 32, 256 when 64)");
    require(gemm_shared_bytes(t) <= kMaxSharedBytes, "the GEMM's tiles need more than 48 KiB of shared memory");
    require((s.m + t.bm - 1) / t.bm <= kMaxGridYz, "too many row tiles for a CUDA grid (raise BM)");
}

// The tensor-core GEMM (gemm_tc.cuh): BM×BN tiles of Y, 32-deep stages of X and W (then of S
// and B_a) brought by cp.async through `stages` shared-memory buffers, `warps` warps in 2 rows,
// each computing a (BM/2)×(BN/(warps/2)) tile with mma.sync m16n8k16. Every tile is a kernel of
// its own (three builds each: emu, sm_80, sm_90), so only these are compiled; the accumulators,
// (BM/2)·(BN/(warps/2))/32 floats per thread, bound them (128 for the largest).
struct TcTile {
    int bm, bn, warps, stages;
};
inline constexpr int kTcBk = 32;
inline constexpr TcTile kTcTiles[] = {{64, 64, 4, 3}, {128, 128, 8, 3}, {128, 128, 8, 4}, {128, 256, 8, 3}};

// The compiled tile of (BM, BN, warps, stages), or nullptr.
inline const TcTile* tc_tile(int bm, int bn, int warps, int stages) {
    for (const TcTile& x : kTcTiles)
        if (x.bm == bm && x.bn == bn && x.warps == warps && x.stages == stages) return &x;
    return nullptr;
}

// The compiled tiles as one line, for messages: "BM/BN/warps/stages 64/64/4/3, ...".
inline std::string tc_tile_list() {
    std::string out;
    for (const TcTile& x : kTcTiles)
        out += (out.empty() ? "BM/BN/warps/stages " : ", ") + std::to_string(x.bm) + "/" + std::to_string(x.bn) + "/" +
               std::to_string(x.warps) + "/" + std::to_string(x.stages);
    return out;
}

// Dynamic shared memory of a gemm_tc block: the stages of X's BM×32 and W's 32×BN tiles (bf16),
// which the bf16 tile of Y reuses for the store, and the tile rows' adapters.
constexpr std::size_t gemm_tc_shared_bytes(const TcTile& t) {
    const auto z = [](int x) { return static_cast<std::size_t>(x); };
    const std::size_t stages = 2 * z(t.stages) * (z(t.bm) * kTcBk + kTcBk * z(t.bn)), y = 2 * z(t.bm) * z(t.bn);
    return (stages > y ? stages : y) + 4 * z(t.bm);
}

// The tensor-core down-projection (down_project_tc.cuh): a warp per 16 tokens, S's r columns
// rounded up to 16 as the mma's n, and kDownTcStages 32-deep stages of X, A_a and the mask words
// in flight, so that the few warps a small M gives still keep enough of X in flight.
inline constexpr int kDownTcWarps = 1, kDownTcStages = 6, kTcMaxRank = 64;
constexpr int down_tc_rank(int r) { return r <= 16 ? 16 : r <= 32 ? 32 : 64; }
constexpr std::size_t down_tc_shared_bytes(int r) {
    const auto z = [](int x) { return static_cast<std::size_t>(x); };
    const std::size_t rows = 16 * z(kDownTcWarps);
    return 2 * z(kDownTcStages) * (rows * kTcBk + kTcBk * z(down_tc_rank(r))) + 4 * z(kDownTcStages) * rows + 4 * rows;
}

// A tensor-core case's tuning: its tile and, for multi_adapter, the adapters per call.
struct TcTuning {
    TcTile tile = kTcTiles[1];
    int group = 8;
    // The tiled GEMM's Tuning with the same blocking, for the traffic model (whose loads depend
    // on BM, BN and the group alone).
    Tuning blocking() const {
        Tuning t{tile.bm, tile.bn, kTcBk, 4, 4};
        t.group = group;
        return t;
    }
};

// The rules of the bf16 tensor-core cases (lora_tc.cu: base, unfused, fused and multi_adapter on
// gemm_tc.cuh); throws std::invalid_argument naming the first one broken.
inline void validate_tensor_core(const Shape& s, Method m, const TcTuning& t) {
    auto require = [](bool ok, const std::string& rule) {
        if (!ok) throw std::invalid_argument("cuda lora tensor cores: " + rule);
    };
    require(s.bf16, "the tensor-core variants take bf16 (dtype=bf16); fp32 runs on the FMA variants");
    require(m != Method::cublas_unfused, "cublas_unfused has no tensor-core version of memwall's own");
    require(s.m >= 1 && s.k >= 1 && s.n >= 1 && s.r >= 1 && s.adapters >= 1 && s.adapters <= s.m,
            "sizes must be positive and adapters at most M");
    require(s.k % 8 == 0 && s.n % 8 == 0 && s.r % 8 == 0,
            "K, N and r must be multiples of 8 (rows of whole 16-byte cp.async chunks)");
    require(s.r <= kTcMaxRank,
            "r must be at most 64 (the tensor-core down-projection keeps S's row tile in registers)");
    if (!tc_tile(t.tile.bm, t.tile.bn, t.tile.warps, t.tile.stages))
        throw std::invalid_argument("cuda lora tensor cores: no compiled tile BM/BN/warps/stages " +
                                    std::to_string(t.tile.bm) + "/" + std::to_string(t.tile.bn) + "/" +
                                    std::to_string(t.tile.warps) + "/" + std::to_string(t.tile.stages) +
                                    " (compiled: " + tc_tile_list() + ")");
    require((s.m + t.tile.bm - 1) / t.tile.bm <= kMaxGridYz, "too many row tiles for a CUDA grid (raise BM)");
    require(t.group >= 1, "group (adapters per batched call) must be positive");
}

// Host copies of the inputs (LoraWorkload's float arrays, exact bf16 values for bf16 problems),
// uploaded by the device case in its element type.
struct Inputs {
    const float* x = nullptr;
    const float* w = nullptr;
    const float* a = nullptr;  // every adapter's A, one after another
    const float* b = nullptr;  // every adapter's B, one after another
    const std::uint32_t* mask = nullptr;
    const std::int32_t* adapter_of = nullptr;
};

using kit::DeviceCase;

namespace cuda_emu {
// base, unfused, fused and multi_adapter on cuda-emu's arena; `options` sets block order and the
// cache models. Throws std::invalid_argument for cublas_unfused and for a broken rule.
std::unique_ptr<DeviceCase> make_device_case(const Shape& s, Method m, const Tuning& t, const Inputs& in,
                                             const emu::EmulationOptions& options = {});
// The same methods on bf16 with the tensor-core GEMM (lora_tc.cu).
std::unique_ptr<DeviceCase> make_tensor_core_case(const Shape& s, Method m, const TcTuning& t, const Inputs& in,
                                                  const emu::EmulationOptions& options = {});
}  // namespace cuda_emu

namespace cuda_gpu {
// The same on the current CUDA device (nvcc build).
std::unique_ptr<DeviceCase> make_device_case(const Shape& s, Method m, const Tuning& t, const Inputs& in);
std::unique_ptr<DeviceCase> make_tensor_core_case(const Shape& s, Method m, const TcTuning& t, const Inputs& in);
// unfused's passes with cuBLAS for the three GEMMs (cublas_unfused.cu): cublasSgemm in fp32,
// cublasGemmEx on bf16 with float accumulation in bf16.
std::unique_ptr<DeviceCase> make_cublas_unfused_case(const Shape& s, const Inputs& in);
}  // namespace cuda_gpu

}  // namespace memwall::lora_cuda

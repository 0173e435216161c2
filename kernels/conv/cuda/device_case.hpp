// The host side of the CUDA conv kernels (direct.cuh, im2win_*.cuh, implicit_gemm.cuh,
// im2col.cuh): the problem and tuning as they take them, the rules a case must keep, its
// workspace and shared memory, and the device-case factories. device_cases.cu builds the
// emulatable kernels twice (cuda_emu, host compiler; cuda_gpu, nvcc); im2col_gemm.cu (cuBLAS) and
// cudnn.cu (cuDNN) only for GPUs. C++17 and free of CUDA headers, so that nvcc and the host side
// (register_cuda.cpp) both include it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "cuda_emu/options.hpp"
#include "kernels/conv/cuda/tc_tiles.hpp"
#include "kernels/kit/device_case.hpp"
#include "kernels/kit/register_tiling.hpp"

namespace memwall::conv_cuda {

// What the products multiply: fp32 FMA, or tensor cores on bf16 (stored bf16) or tf32 (stored
// fp32, rounded to tf32 as the fragments are read), accumulating in fp32.
enum class Dtype { fp32, bf16, tf32 };

// memwall::ConvProblem as the kernels see it: NCHW input and output, KCRS filter, taps outside the
// input read 0 (the tensor-core kernels' layouts: tc_tiles.hpp); p and q are the output's height
// and width.
struct Shape {
    int n = 1, c = 1, h = 1, w = 1, k = 1, r = 1, s = 1, stride = 1, pad = 0;
    int p = 1, q = 1;
    Dtype dtype = Dtype::fp32;
};

enum class Algorithm { direct, im2win, implicit_gemm, im2col_gemm, cudnn, implicit_gemm_tc, im2win_tc };

inline bool tensor_core(Algorithm a) { return a == Algorithm::implicit_gemm_tc || a == Algorithm::im2win_tc; }

// Bytes of one stored element of the tensor-core kernels: bf16's 2, tf32's (fp32 storage) 4.
inline int element_bytes(Dtype d) { return d == Dtype::bf16 ? 2 : 4; }

struct Tuning {
    Algorithm algorithm = Algorithm::implicit_gemm;
    int threads = 128;     // direct: threads per block, one output pixel each
    int k_per_thread = 4;  // direct, im2win: filters each thread accumulates (1, 2, 4 or 8)
    int tile_k = 16;       // im2win: filters per block
    int tile_p = 4;        // im2win: output rows per block
    int tile_q = 16;       // im2win: output columns per block
    int tile_c = 2;        // im2win: channels staged in shared memory at a time
    int bm = 64, bn = 64;  // implicit_gemm, *_tc: block tile of filters x output pixels
    int bk = 8;            // implicit_gemm: depth (of C*R*S) of a shared-memory stage
    int tm = 4, tn = 4;    // implicit_gemm: per-thread register tile (1, 2, 4 or 8 each)
    int stages = 3;        // *_tc: shared-memory stages in flight (tc_tiles.hpp)
};

// Without the opt-in above it, which cuda::launch would do: portable to every sm_80+ GPU and
// leaves room for several blocks per SM.
inline constexpr std::size_t kMaxSharedBytes = 48 * 1024;
inline constexpr int kMaxThreads = 1024;
inline constexpr long long kMaxGridX = 2147483647;
inline constexpr int kMaxGridYz = 65535;
inline constexpr int kTransformThreads = 256;  // im2win and im2col transforms, per block

using kit::register_tile;

inline int im2win_threads(const Tuning& t) { return t.tile_p * t.tile_q * (t.tile_k / t.k_per_thread); }
inline int implicit_gemm_threads(const Tuning& t) { return kit::register_tiled_threads(t.bm, t.bn, t.tm, t.tn); }

// Floats of a window strip in an im2win block: the tile_q windows of one output row in one
// channel, S*R each, stride*R apart.
inline std::size_t im2win_strip_floats(const Shape& s, int tile_q) {
    return static_cast<std::size_t>((tile_q - 1) * s.stride + s.s) * static_cast<std::size_t>(s.r);
}

// An im2win block's shared memory: for each of tile_c channels, the filter tile (tile_k x R*S,
// window order) and tile_p window strips.
inline std::size_t im2win_shared_bytes(const Shape& s, const Tuning& t) {
    const auto rs = static_cast<std::size_t>(s.r) * static_cast<std::size_t>(s.s);
    return 4 * static_cast<std::size_t>(t.tile_c) *
           (static_cast<std::size_t>(t.tile_k) * rs +
            static_cast<std::size_t>(t.tile_p) * im2win_strip_floats(s, t.tile_q));
}

// An implicit_gemm block's shared memory: per output pixel of the tile its image offset (8 bytes)
// and first input row and column (4 + 4), the filter tile (bk x bm, rows padded by one float
// against bank conflicts on its transposed stores) and the input tile (bk x bn).
constexpr std::size_t implicit_gemm_shared_bytes(int bm, int bn, int bk) {
    const auto m = static_cast<std::size_t>(bm), n = static_cast<std::size_t>(bn), k = static_cast<std::size_t>(bk);
    return 16 * n + 4 * k * (m + 1 + n);
}

// Elements of im2win_tc's window tensor: N x P x (W + 2 pad) x R x C (C padded, tc_tiles.hpp).
inline std::size_t tc_window_elements(const Shape& s) {
    const auto z = [](int x) { return static_cast<std::size_t>(x); };
    return z(s.n) * z(s.p) * z(s.w + 2 * s.pad) * z(s.r) * z(conv_tc_channels(s.c, element_bytes(s.dtype)));
}

// Floats (4 bytes each) of the workspace the device allocates: im2win's window-order tensor
// (N x C x P x (W + 2 pad) x R), im2col's column matrix (N x C*R*S x P*Q), im2win_tc's window
// tensor; none for direct and the implicit GEMMs; cuDNN's is known only once it has chosen its
// algorithm (DeviceCase::detail).
inline std::size_t workspace_floats(const Shape& s, Algorithm a) {
    const auto z = [](int x) { return static_cast<std::size_t>(x); };
    switch (a) {
        case Algorithm::im2win: return z(s.n) * z(s.c) * z(s.p) * z(s.w + 2 * s.pad) * z(s.r);
        case Algorithm::im2col_gemm: return z(s.n) * z(s.c) * z(s.r) * z(s.s) * z(s.p) * z(s.q);
        case Algorithm::im2win_tc: return tc_window_elements(s) * z(element_bytes(s.dtype)) / 4;
        case Algorithm::direct:
        case Algorithm::implicit_gemm:
        case Algorithm::implicit_gemm_tc:
        case Algorithm::cudnn: return 0;
    }
    return 0;
}

// Throws std::invalid_argument naming the first rule the shape or the tuning breaks.
inline void validate(const Shape& s, const Tuning& t) {
    auto require = [](bool ok, const std::string& rule) {
        if (!ok) throw std::invalid_argument("cuda conv: " + rule);
    };
    require(s.n >= 1 && s.c >= 1 && s.h >= 1 && s.w >= 1 && s.k >= 1 && s.r >= 1 && s.s >= 1 && s.stride >= 1 &&
                s.pad >= 0 && s.p >= 1 && s.q >= 1,
            "sizes must be positive and pad not negative");
    // Offsets inside one image plane and one filter row are ints in the kernels.
    require(static_cast<long long>(s.h) * s.w < (1LL << 31) && static_cast<long long>(s.c) * s.r * s.s < (1LL << 31) &&
                static_cast<long long>(s.p) * s.q < (1LL << 31),
            "an image plane, an output plane and a filter (C*R*S) must each be below 2^31 elements");
    const int kpt = t.k_per_thread;
    require(tensor_core(t.algorithm) ? s.dtype != Dtype::fp32 : s.dtype == Dtype::fp32,
            "implicit_gemm_tc and im2win_tc take dtype bf16 or tf32, the other kernels fp32");
    switch (t.algorithm) {
        case Algorithm::direct:
            require(t.threads >= 32 && t.threads <= kMaxThreads && t.threads % 32 == 0,
                    "direct: threads must be a multiple of 32 up to 1024");
            require(register_tile(kpt), "direct: k_per_thread must be 1, 2, 4 or 8");
            break;
        case Algorithm::im2win:
            require(register_tile(kpt), "im2win: k_per_thread must be 1, 2, 4 or 8");
            require(t.tile_k >= 1 && t.tile_p >= 1 && t.tile_q >= 1 && t.tile_c >= 1 && t.tile_k <= kMaxThreads &&
                        t.tile_p <= kMaxThreads && t.tile_q <= kMaxThreads && t.tile_c <= kMaxThreads,
                    "im2win: tile_k, tile_p, tile_q and tile_c must be 1 to 1024");
            require(t.tile_k % kpt == 0, "im2win: tile_k must be a multiple of k_per_thread");
            require(static_cast<long long>(t.tile_p) * t.tile_q * (t.tile_k / kpt) <= kMaxThreads &&
                        im2win_threads(t) % 32 == 0,
                    "im2win: tile_p * tile_q * tile_k / k_per_thread (threads) must be a multiple of 32 up to 1024");
            require(im2win_shared_bytes(s, t) <= kMaxSharedBytes,
                    "im2win: the filter and window tiles need more than 48 KiB of shared memory");
            require(static_cast<long long>((s.p + t.tile_p - 1) / t.tile_p) * ((s.q + t.tile_q - 1) / t.tile_q) <=
                            kMaxGridX &&
                        (s.k + t.tile_k - 1) / t.tile_k <= kMaxGridYz,
                    "im2win: too many blocks for a CUDA grid (raise tile_p, tile_q or tile_k)");
            break;
        case Algorithm::implicit_gemm:
            require(register_tile(t.tm) && register_tile(t.tn), "implicit_gemm: TM and TN must be 1, 2, 4 or 8");
            require(t.bk >= 1 && t.bm >= t.tm && t.bn >= t.tn && t.bm <= 1024 && t.bn <= 1024,
                    "implicit_gemm: BK must be positive and BM, BN at least TM, TN and at most 1024");
            require(t.bm % t.tm == 0 && t.bn % t.tn == 0, "implicit_gemm: BM and BN must be multiples of TM and TN");
            require(implicit_gemm_threads(t) % 32 == 0 &&
                        implicit_gemm_threads(t) <= kit::register_tiled_max_threads(t.tm, t.tn),
                    "implicit_gemm: (BM/TM) * (BN/TN) threads must be a multiple of 32 up to 1024 (512 when TM * TN "
                    "is 32, 256 when it is 64)");
            require(implicit_gemm_shared_bytes(t.bm, t.bn, t.bk) <= kMaxSharedBytes,
                    "implicit_gemm: the tiles need more than 48 KiB of shared memory");
            require((static_cast<long long>(s.n) * s.p * s.q + t.bn - 1) / t.bn <= kMaxGridX &&
                        (s.k + t.bm - 1) / t.bm <= kMaxGridYz,
                    "implicit_gemm: too many blocks for a CUDA grid (raise BN or BM)");
            break;
        case Algorithm::im2col_gemm:
            // cuBLAS takes int dimensions: the GEMM of one image is (C*R*S) x (P*Q).
            require(static_cast<long long>(s.c) * s.r * s.s * s.p * s.q < (1LL << 31),
                    "im2col_gemm: one image's column matrix must be below 2^31 elements");
            break;
        case Algorithm::cudnn: break;
        case Algorithm::implicit_gemm_tc:
        case Algorithm::im2win_tc:
            require(conv_tc_tile_index(t.bm, t.bn, t.stages) >= 0,
                    "the tensor-core kernels have no compiled tile BM/BN/stages " + std::to_string(t.bm) + "/" +
                        std::to_string(t.bn) + "/" + std::to_string(t.stages) + " (compiled: " + conv_tc_tile_list() +
                        ")");
            require(static_cast<long long>(s.r) * s.s * conv_tc_channels(s.c, element_bytes(s.dtype)) < (1LL << 31) &&
                        tc_window_elements(s) / static_cast<std::size_t>(s.n) < (std::size_t{1} << 31),
                    "a filter (R*S*C) and one image's window tensor must be below 2^31 elements");
            require((static_cast<long long>(s.n) * s.p * s.q + t.bn - 1) / t.bn <= kMaxGridX &&
                        (s.k + t.bm - 1) / t.bm <= kMaxGridYz,
                    "too many blocks for a CUDA grid (raise BN or BM)");
            break;
    }
}

// Host copies of the inputs (ConvWorkload's), uploaded by the device case.
struct Inputs {
    const float* input = nullptr;
    const float* filter = nullptr;
};

// One case on a device: its output is N x K x P x Q floats. Errors throw std::runtime_error (CUDA
// and library calls) or memwall::cuda::LaunchError (launches).
using kit::DeviceCase;

namespace cuda_emu {
// direct, im2win, implicit_gemm and the tensor-core kernels on cuda-emu's arena; `options` sets
// block order, barrier rule and the cache models. Throws std::invalid_argument for the GPU-only algorithms.
std::unique_ptr<DeviceCase> make_device_case(const Shape& s, const Tuning& t, const Inputs& in,
                                             const emu::EmulationOptions& options = {});
}  // namespace cuda_emu

namespace cuda_gpu {
// direct, im2win, implicit_gemm and the tensor-core kernels on the current CUDA device (nvcc build; checked on an H100,
// docs/gpu-runs/).
std::unique_ptr<DeviceCase> make_device_case(const Shape& s, const Tuning& t, const Inputs& in);
// The im2col kernel, then one cublasSgemmStridedBatched over the images (im2col_gemm.cu).
std::unique_ptr<DeviceCase> make_im2col_gemm_case(const Shape& s, const Inputs& in);
// cudnnConvolutionForward with the algorithm its heuristics rank first (cudnn.cu; built only
// when cuDNN was found, MEMWALL_HAVE_CUDNN).
std::unique_ptr<DeviceCase> make_cudnn_case(const Shape& s, const Inputs& in);
}  // namespace cuda_gpu

}  // namespace memwall::conv_cuda

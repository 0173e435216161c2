// The tensor-core conv kernels' host-side facts (implicit_gemm_tc.cuh, im2win_tc.cuh, on
// tc_gemm.cuh): the layouts they take, their compiled tiles and shared memory. C++17 and free of
// CUDA headers (device_case.hpp includes it).
//
// Layout: NHWC input and output, the filter with its channels innermost (KRSC for implicit_gemm_tc,
// KSRC for im2win_tc, the order of its window tensor), channels padded with zeros to whole 16-byte
// chunks (8 bf16 or 4 fp32: cuDNN's tensor-core kernels ask the same of NHWC). Then one GEMM row
// of depth R*S*C is a run of 16-byte chunks none of which crosses a tap, so cp.async copies whole
// chunks, and a tap outside the input is one zero-filled chunk. NCHW would put a pixel's channels
// H*W elements apart: every element a separate gather. The device case converts NCHW to NHWC and
// back on upload and download, outside the timed forward pass, as it converts fp32 to bf16.
#pragma once

#include <cstddef>
#include <string>

namespace memwall::conv_cuda {

// The GEMM: M = K filters (A: rows of the filter), N = batch*P*Q output pixels (B: each pixel's
// window), depth R*S*C. A block computes BM filters x BN pixels with four warps (2 x 2, each
// BM/2 x BN/2 of m16n8 mma tiles); a stage holds 64 bytes of depth (32 bf16 or 16 tf32 taps) of
// both operands; `stages` of them are in flight. Each tile is compiled twice per dtype and
// variant (emu, sm_80, sm_90), so only these are built; the accumulators (BM*BN/128 floats per
// thread) stay in registers up to 128 x 128.
struct ConvTcTile {
    int bm, bn, stages;
};
inline constexpr ConvTcTile kConvTcTiles[] = {{64, 64, 3}, {128, 64, 4}, {64, 128, 4}, {128, 128, 3}};
inline constexpr int kConvTcWarps = 4;
inline constexpr int kConvTcStageBytes = 64;  // of one row's depth, per stage
inline constexpr int kConvTcChunkBytes = 16;  // one cp.async, one ldmatrix row

// The compiled tile's index, or -1.
inline int conv_tc_tile_index(int bm, int bn, int stages) {
    for (std::size_t i = 0; i < sizeof(kConvTcTiles) / sizeof(kConvTcTiles[0]); ++i)
        if (kConvTcTiles[i].bm == bm && kConvTcTiles[i].bn == bn && kConvTcTiles[i].stages == stages)
            return static_cast<int>(i);
    return -1;
}

// "BM/BN/stages 64/64/3, ...", for messages.
inline std::string conv_tc_tile_list() {
    std::string out;
    for (const ConvTcTile& t : kConvTcTiles)
        out += (out.empty() ? "BM/BN/stages " : ", ") + std::to_string(t.bm) + "/" + std::to_string(t.bn) + "/" +
               std::to_string(t.stages);
    return out;
}

// Dynamic shared memory of a block: `stages` filter and window tiles.
constexpr std::size_t conv_tc_shared_bytes(int bm, int bn, int stages) {
    return static_cast<std::size_t>(stages) * static_cast<std::size_t>(bm + bn) * kConvTcStageBytes;
}

// Channels as laid out: C rounded up to whole chunks of `element_bytes`.
constexpr int conv_tc_channels(int c, int element_bytes) {
    const int per_chunk = kConvTcChunkBytes / element_bytes;
    return (c + per_chunk - 1) / per_chunk * per_chunk;
}

}  // namespace memwall::conv_cuda

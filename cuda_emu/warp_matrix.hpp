// Warp-level matrix instructions on the CPU: mma.sync (m16n8k16 bf16/f16, m16n8k8 tf32, fp32
// accumulators), ldmatrix and stmatrix (m8n8 b16, x1/x2/x4, .trans), lane by lane as the PTX
// ISA's fragment tables lay them out (kernels/kit/cuda/mma.cuh is the kernels' interface).
// All 32 lanes of the warp must arrive at the same call; anything else ends the launch with a
// LaunchError, as the other warp intrinsics do.
#pragma once

#include <cstdint>

#include "cuda_emu/device.hpp"

namespace memwall::emu {

enum class MmaType : std::uint8_t { bf16, f16, tf32 };

// D = A * B + C for the warp: m16n8k16 for bf16 and f16, m16n8k8 for tf32 (whose registers
// hold tf32 bit patterns; the low 13 bits are ignored). Each product of two inputs is exact in
// fp32; the sum starts from C and adds the products in k order, rounding to nearest after each
// addition (the GPU's order is not specified, so results may differ in the last bits).
void mma(MmaType type, float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2], const float (&c)[4],
         const detail::Site& site);

// ldmatrix.sync.aligned.m8n8.x<count>[.trans].shared.b16: lanes 8k..8k+7 give the 16-byte rows
// of matrix k (16-byte aligned, in the block's shared memory); r[k] of lane l receives row
// l / 4, columns 2 (l % 4) and the next (of the transpose with trans).
void ldmatrix(std::uint32_t* r, int count, bool trans, const void* row, const detail::Site& site);
// stmatrix, the inverse: lanes 8k..8k+7 give the rows matrix k is stored to.
void stmatrix(void* row, const std::uint32_t* r, int count, bool trans, const detail::Site& site);

// cvt.rna.tf32.f32: x rounded to 10 mantissa bits, ties away from zero, low 13 bits zero.
std::uint32_t round_to_tf32(float x);

}  // namespace memwall::emu

// The rules of a register-tiled SIMT GEMM block (conv's implicit_gemm, lora's gemm.cuh): BM x BN
// outputs, each of its (BM/TM) x (BN/TN) threads a TM x TN tile of accumulators in registers.
// C++17 and free of CUDA, for the launchers (nvcc and cuda-emu) and the registration alike.
#pragma once

namespace memwall::kit {

// TM and TN, and other per-thread counts unrolled into registers: 1, 2, 4 or 8.
constexpr bool register_tile(int x) { return x == 1 || x == 2 || x == 4 || x == 8; }

constexpr int register_tiled_threads(int bm, int bn, int tm, int tn) { return (bm / tm) * (bn / tn); }

// The most threads a block may have with a TM x TN register tile: the kernels' launch bounds,
// which keep the accumulators in registers. An SM has 64 Ki registers: 1024 threads get 64 each,
// enough for 16 accumulators; 32 need up to 128 (512 threads), 64 up to 255 (256 threads).
constexpr int register_tiled_max_threads(int tm, int tn) { return tm * tn >= 64 ? 256 : tm * tn >= 32 ? 512 : 1024; }

}  // namespace memwall::kit

// The global-memory traffic model of the CUDA conv kernels: what each one loads and stores given
// its tiling (exact counts for the emulatable kernels, so the model can be held against cuda-emu's
// exact byte counters), and estimates of the bytes that reach L2 and DRAM.
#pragma once

#include <vector>

#include "kernels/conv/conv.hpp"
#include "kernels/conv/cuda/device_case.hpp"
#include "metrics/counter.hpp"

namespace memwall {

struct ConvCudaTraffic {
    // Bytes the threads load from and store to global memory, every kernel of the case together:
    // exact for direct, im2win, implicit_gemm and the tensor-core kernels (emu.global_load_bytes,
    // emu.global_store_bytes);
    // for im2col_gemm the GEMM's part assumes cuBLAS tiles of 128 x 128 outputs; for cudnn only
    // the compulsory bytes (a lower bound: cuDNN's kernels are its own).
    double loads = 0;
    double stores = 0;
    // Estimates: the bytes reaching L2 (loads that miss an L1 which keeps what a block re-reads,
    // plus every store), and DRAM's (the distinct bytes each kernel reads and writes; the
    // workspace written by one kernel, and read back by the next from DRAM only when the
    // kernels' working set outgrows L2).
    double l2 = 0;
    double dram = 0;
    double block_working_set = 0;  // bytes a block re-reads between uses (L1 holds them or not)
    double working_set = 0;        // every byte the kernels touch (L2 holds them or not)
    double workspace = 0;          // bytes allocated beside input, filter and output
};

ConvCudaTraffic conv_cuda_traffic(const ConvProblem& p, const conv_cuda::Tuning& t);

// The tensor-core kernels' mma FLOPs (flops.bf16_tensor or flops.tf32_tensor): whole block tiles
// over whole stages of depth, so above p.flops() where K, the pixels or R*S*C are not multiples.
double conv_tc_tensor_flops(const ConvProblem& p, const conv_cuda::Tuning& t);

// flops, bytes.min, workspace.bytes (not for cudnn: its workspace is known only once it has chosen
// an algorithm, and is in the case's detail) and bytes.l1 (loads + stores), bytes.l2, bytes.dram
// in kit::emu_gpu_hierarchy() (cuda-emu's cache models, not the host's caches), from conv_cuda_traffic.
std::vector<Counter> conv_cuda_model(const ConvProblem& p, const conv_cuda::Tuning& t);

}  // namespace memwall

// The global-memory traffic model of the CUDA lora methods: what each one's kernels load and
// store given the GEMM's tiling (exact for the emulatable methods, so the model can be held
// against cuda-emu's exact byte counters), and an estimate of the bytes reaching DRAM.
#pragma once

#include <vector>

#include "kernels/lora/cuda/device_case.hpp"
#include "kernels/lora/lora.hpp"
#include "metrics/counter.hpp"
#include "metrics/memory_hierarchy.hpp"

namespace memwall {

struct LoraCudaTraffic {
    // Bytes the threads load from and store to global memory, every launch of the case together:
    // exact for base, unfused, fused and multi_adapter (emu.global_load_bytes,
    // emu.global_store_bytes), and for their *_tc versions (lora_tc_traffic); for cublas_unfused the GEMMs' part is
    // each operand once (a lower bound: cuBLAS's tiles are its own).
    double loads = 0;
    double stores = 0;
    // DRAM, pass by pass: each launch reads the distinct bytes of its operands and writes its
    // outputs once, as if L2 were flushed between launches: exact for one launch whose operands
    // fit in L2, an upper bound where a pass's intermediates stay in L2 for the next launch (as
    // they do on a GPU, and in cuda-emu's L2, warm across a forward pass's launches).
    // What separates the methods is the passes: unfused writes X', S and T and reads them back,
    // and reads and writes Y twice more; fused reads X twice (down-projection and GEMM) and
    // writes Y once, adding S·B_a in the GEMM's registers.
    double dram = 0;
    double working_set = 0;  // every byte the launches touch
    double workspace = 0;    // bytes allocated beside the inputs and Y
};

// `p` as the CUDA kernels take it.
lora_cuda::Shape cuda_shape(const LoraProblem& p);

LoraCudaTraffic lora_cuda_traffic(const LoraProblem& p, lora_cuda::Method m, const lora_cuda::Tuning& t);
// The same for a *_tc variant: its GEMMs' loads are the tiled GEMM's at its tile's BM and BN (each
// cp.async stage reads the valid chunks of its tiles), its down-projection reads A_a once per
// block of tokens (down_project_tc.cuh) rather than once per token.
LoraCudaTraffic lora_tc_traffic(const LoraProblem& p, lora_cuda::Method m, const lora_cuda::TcTuning& t);

// flops (base: X·W's alone), bytes.min, workspace.bytes and bytes.l1 (loads + stores, every
// request taken as reaching L2: an upper bound for bytes.l2), bytes.dram, in cuda-emu's default
// hierarchy (a 128 KiB L1 per block, H100's 50 MiB L2), not the host's caches.
std::vector<Counter> lora_cuda_model(const LoraProblem& p, lora_cuda::Method m, const lora_cuda::Tuning& t);

// The FLOPs the tensor-core variants' mma.sync instructions do, exactly what cuda-emu counts as
// flops.bf16_tensor: every block multiplies whole BM×BN×32 stages, padding included, over K and,
// with the LoRA term, over r once per adapter its rows span; unfused's three GEMMs each; fused's
// and multi_adapter's down-projection, 16-token blocks by r rounded up to 16, once per adapter.
double lora_tc_tensor_flops(const LoraProblem& p, lora_cuda::Method m, const lora_cuda::TcTuning& t);

// A *_tc variant's model: lora_cuda_model's counters of lora_tc_traffic, and flops.bf16_tensor.
std::vector<Counter> lora_tc_model(const LoraProblem& p, lora_cuda::Method m, const lora_cuda::TcTuning& t);

}  // namespace memwall

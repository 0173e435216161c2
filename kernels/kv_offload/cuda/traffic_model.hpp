// The traffic model of the CUDA kv_offload variants: what their kernels load and store in device
// memory and read from mapped host memory (exact, so it can be held against cuda-emu's counters),
// what the copies bring from the host, and an estimate of the bytes reaching DRAM.
#pragma once

#include <vector>

#include "kernels/kv_offload/cuda/device_case.hpp"
#include "kernels/kv_offload/kv_offload.hpp"
#include "metrics/counter.hpp"

namespace memwall {

struct KvCudaTraffic {
    // Bytes the kernels' threads load from and store to device memory, every launch together
    // (emu.global_load_bytes, emu.global_store_bytes): the queries, the selections, the pages
    // (but zero_copy's), the partials written and combined, the output.
    double loads = 0;
    double stores = 0;
    // zero_copy: the bytes its threads read from mapped host memory (emu.host_load_bytes), their
    // warp requests and the 32-byte sectors those touch (emu.host_load_requests,
    // emu.host_sectors_read): 4 per 128-byte request aligned to 32 bytes, 5 otherwise.
    double host_loads = 0;
    double host_requests = 0;
    double host_sectors = 0;
    // staged, pipelined: bytes cudaMemcpyAsync brings from pinned host memory, and the copies.
    double copied = 0;
    double copies = 0;
    // DRAM: each launch reads the distinct bytes of its operands not left in L2 by the launch
    // before, and writes its outputs once; the copies write the staging buffer.
    double dram = 0;
    double working_set = 0;  // device bytes the launches touch
    double workspace = 0;    // bytes allocated beside the inputs and output: partials, staging
};

// `p` as the CUDA kernels take it.
kv_cuda::Shape cuda_shape(const KvProblem& p);

KvCudaTraffic kv_cuda_traffic(const KvProblem& p, kv_cuda::Method m, const kv_cuda::Tuning& t);

// flops, bytes.min, workspace.bytes, bytes.l1 (loads + stores), bytes.l2 and bytes.dram in
// cuda-emu's default hierarchy; tier.bytes (what comes from host memory: zero_copy's sectors x
// 32, the copies' bytes; 0 for resident) and tier.requests (zero_copy's warp requests, the
// copies), and for zero_copy tier.sectors.
std::vector<Counter> kv_cuda_model(const KvProblem& p, kv_cuda::Method m, const kv_cuda::Tuning& t);

}  // namespace memwall

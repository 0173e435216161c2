// The tensor-core kernels' static figures on sm_90 (tc_resources.hpp): their rows found by tile and rank.
#include "kernels/lora/cuda/tc_resources.hpp"

namespace memwall::lora_cuda {

#ifndef MEMWALL_HAVE_CUDA
const KernelResourceTable& gemm_tc_sm90_resources() {
    static const KernelResourceTable t{0, "built without CUDA: no sm_90 build to read", {}};
    return t;
}
#endif

const KernelResources* gemm_tc_resources(const KernelResourceTable& table, const TcTile& tile) {
    return kit::find_kernel(table, "gemm_tc_kernelILi" + std::to_string(tile.bm) + "ELi" + std::to_string(tile.bn) +
                                       "ELi" + std::to_string(tile.warps) + "ELi" + std::to_string(tile.stages) + "EE");
}

const KernelResources* down_tc_resources(const KernelResourceTable& table, int rp) {
    return kit::find_kernel(
        table, "down_project_tc_kernelILi" + std::to_string(rp) + "ELi" + std::to_string(kDownTcStages) + "EE");
}

std::string gemm_tc_resource_summary() {
    const KernelResourceTable& table = gemm_tc_sm90_resources();
    std::string out;
    for (const TcTile& t : kTcTiles)
        if (const KernelResources* k = gemm_tc_resources(table, t))
            out += (out.empty() ? "" : "; ") + std::to_string(t.bm) + "/" + std::to_string(t.bn) + "/" +
                   std::to_string(t.warps) + "/" + std::to_string(t.stages) + ": " +
                   kit::sm90_summary(*k, 32 * t.warps, gemm_tc_shared_bytes(t));
    for (int rp : {16, 32, 64})
        if (const KernelResources* k = down_tc_resources(table, rp))
            out += "; down-projection r <= " + std::to_string(rp) + ": " +
                   kit::sm90_summary(*k, 32 * kDownTcWarps, down_tc_shared_bytes(rp));
    return out;
}

}  // namespace memwall::lora_cuda

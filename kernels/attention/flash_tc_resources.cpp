// flash_tc's static figures on sm_90 (cuda/resources.hpp): its kernels' rows found by tile, and
// the occupancy that follows from them.
#include "kernels/attention/cuda/resources.hpp"

namespace memwall::attention_cuda {

#ifndef MEMWALL_HAVE_CUDA
const KernelResourceTable& flash_tc_sm90_resources() {
    static const KernelResourceTable t{0, "built without CUDA: no sm_90 build to read", {}};
    return t;
}
#endif

const KernelResources* flash_tc_resources(const KernelResourceTable& table, const FlashTcTile& tile) {
    const std::string name = "flash_tc_kernelILi" + std::to_string(tile.head_dim) + "ELi" + std::to_string(tile.br) +
                             "ELi" + std::to_string(tile.bc) + "ELi" + std::to_string(tile.stages) + "EE";
    return kit::find_kernel(table, name);
}

std::string flash_tc_resource_summary() {
    const KernelResourceTable& table = flash_tc_sm90_resources();
    std::string out;
    for (const FlashTcTile& t : kFlashTcTiles) {
        const KernelResources* k = flash_tc_resources(table, t);
        if (!k) continue;
        out += (out.empty() ? "" : "; ") + std::string("d=") + std::to_string(t.head_dim) + " " + std::to_string(t.br) +
               "/" + std::to_string(t.bc) + "/" + std::to_string(t.warps) + "/" + std::to_string(t.stages) + ": " +
               kit::sm90_summary(*k, 32 * t.warps, flash_tc_shared_bytes(t.br, t.bc, t.head_dim, t.stages));
    }
    return out;
}

}  // namespace memwall::attention_cuda

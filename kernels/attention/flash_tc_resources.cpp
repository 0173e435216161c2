// flash_tc's static figures on sm_90 (cuda/resources.hpp): its kernels' rows found by tile, and
// the occupancy that follows from them.
#include <algorithm>

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
    for (const KernelResources& k : table.kernels)
        if (k.kernel.find(name) != std::string_view::npos) return &k;
    return nullptr;
}

int sm90_blocks_per_sm(int registers, int threads, std::size_t shared_bytes) {
    constexpr int sm_registers = 65536, unit = 256, sm_warps = 64, sm_blocks = 32;
    constexpr std::size_t sm_shared = 228 * 1024, reserved = 1024;
    const int warps = (threads + 31) / 32;
    const int warp_registers = (registers * 32 + unit - 1) / unit * unit;
    const int by_registers = warp_registers > 0 ? sm_registers / warp_registers / warps : sm_blocks;
    const int by_shared = static_cast<int>(sm_shared / (shared_bytes + reserved));
    return std::min({by_registers, by_shared, sm_warps / warps, sm_blocks});
}

std::string flash_tc_resource_summary() {
    const KernelResourceTable& table = flash_tc_sm90_resources();
    std::string out;
    for (const FlashTcTile& t : flash_tc_tiles) {
        const KernelResources* k = flash_tc_resources(table, t);
        if (!k) continue;
        const std::size_t shared = flash_tc_shared_bytes(t.br, t.bc, t.head_dim, t.stages) +
                                   static_cast<std::size_t>(k->static_shared_bytes);
        const int blocks = sm90_blocks_per_sm(k->registers, 32 * t.warps, shared);
        out += (out.empty() ? "" : "; ") + std::string("d=") + std::to_string(t.head_dim) + " " +
               std::to_string(t.br) + "/" + std::to_string(t.bc) + "/" + std::to_string(t.warps) + "/" +
               std::to_string(t.stages) + ": " + std::to_string(k->registers) + " registers, " +
               std::to_string(k->matrix_instructions) + " HMMA, " +
               std::to_string(shared / 1024) + " KiB shared, " + std::to_string(blocks) + " blocks/SM (" +
               std::to_string(blocks * t.warps) + " warps), " + std::to_string(k->spill_bytes) + " spill bytes";
    }
    return out;
}

}  // namespace memwall::attention_cuda

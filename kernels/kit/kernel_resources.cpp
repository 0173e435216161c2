#include "kernels/kit/kernel_resources.hpp"

#include <algorithm>

namespace memwall::kit {

const KernelResources* find_kernel(const KernelResourceTable& table, std::string_view name) {
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

std::string sm90_summary(const KernelResources& k, int threads, std::size_t dynamic_shared) {
    const std::size_t shared = dynamic_shared + static_cast<std::size_t>(k.static_shared_bytes);
    const int blocks = sm90_blocks_per_sm(k.registers, threads, shared);
    return std::to_string(k.registers) + " registers, " + std::to_string(k.matrix_instructions) + " HMMA, " +
           std::to_string(shared / 1024) + " KiB shared, " + std::to_string(blocks) + " blocks/SM (" +
           std::to_string(blocks * ((threads + 31) / 32)) + " warps), " + std::to_string(k.spill_bytes) +
           " spill bytes";
}

}  // namespace memwall::kit

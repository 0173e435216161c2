// The tensor-core conv kernels' static figures on sm_90 (cuda/resources.hpp): their rows found by
// variant, dtype and tile, and the occupancy that follows from them.
#include "kernels/conv/cuda/resources.hpp"

namespace memwall::conv_cuda {

#ifndef MEMWALL_HAVE_CUDA
const KernelResourceTable& conv_tc_sm90_resources() {
    static const KernelResourceTable t{0, "built without CUDA: no sm_90 build to read", {}};
    return t;
}
#endif

const KernelResources* conv_tc_resources(const KernelResourceTable& table, Algorithm a, Dtype d,
                                         const ConvTcTile& tile) {
    // The Itanium mangling of <kernel><T, BM, BN, STAGES>: float is f, __nv_bfloat16 a class name.
    const std::string name =
        std::string(a == Algorithm::implicit_gemm_tc ? "implicit_gemm_tc_kernelI" : "im2win_tc_kernelI") +
        (d == Dtype::bf16 ? "13__nv_bfloat16" : "f") + "Li" + std::to_string(tile.bm) + "ELi" +
        std::to_string(tile.bn) + "ELi" + std::to_string(tile.stages) + "EE";
    return kit::find_kernel(table, name);
}

std::string conv_tc_resource_summary(Algorithm a) {
    const KernelResourceTable& table = conv_tc_sm90_resources();
    std::string out;
    for (const Dtype d : {Dtype::bf16, Dtype::tf32})
        for (const ConvTcTile& t : kConvTcTiles) {
            const KernelResources* k = conv_tc_resources(table, a, d, t);
            if (!k) continue;
            out += (out.empty() ? "" : "; ") + std::string(d == Dtype::bf16 ? "bf16 " : "tf32 ") +
                   std::to_string(t.bm) + "/" + std::to_string(t.bn) + "/" + std::to_string(t.stages) + ": " +
                   kit::sm90_summary(*k, 32 * kConvTcWarps, conv_tc_shared_bytes(t.bm, t.bn, t.stages));
        }
    return out;
}

}  // namespace memwall::conv_cuda

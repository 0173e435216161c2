// oneDNN's kernels held to the active ISA (core/isa.hpp), so a peer runs the path memwall's
// kernels run: with MEMWALL_ISA=avx2 on an AVX-512 host, oneDNN picks its AVX2 kernels as it
// would on an AVX2 host (and has no bf16 matmul, as there). oneDNN takes the limit once, before
// it first looks at the CPU: call this before making any primitive. A later change of the active
// ISA in the same process does not reach oneDNN. For families that link oneDNN.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include "core/isa.hpp"

namespace memwall::kit {

inline void limit_onednn_to_active_isa() {
    static const bool limited = [] {
        if (active_isa() == host_isa()) return false;
        return dnnl::set_max_cpu_isa(dnnl::cpu_isa::avx2) == dnnl::status::success;
    }();
    (void)limited;
}

}  // namespace memwall::kit

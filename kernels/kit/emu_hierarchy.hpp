// The memory hierarchy the CUDA families' byte models place their streams in: cuda-emu's L1 and
// L2 sector models (their defaults: an L1 of 128 KiB per block, H100's 50 MiB L2), one instance
// each, not the host's caches, so a model's bytes.l1, bytes.l2 and bytes.dram are the
// levels emulation counts.
#pragma once

#include "cuda_emu/options.hpp"
#include "metrics/memory_hierarchy.hpp"

namespace memwall::kit {

inline MemoryHierarchy emu_gpu_hierarchy() {
    const emu::EmulationOptions o;
    MemoryHierarchy mh;
    mh.caches = {{"l1", o.l1.bytes, 1}, {"l2", o.l2.bytes, 1}};
    return mh;
}

}  // namespace memwall::kit

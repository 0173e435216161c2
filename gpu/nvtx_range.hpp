// An NVTX range open while it lives (one per case, named family/variant/backend/params), so
// Nsight Systems shows the sweep. Built by nvcc (runtime.cu) when CUDA is enabled.
#pragma once

#include <string>

namespace memwall::gpu {

class NvtxRange {
  public:
    explicit NvtxRange(const std::string& name);
    ~NvtxRange();
    NvtxRange(const NvtxRange&) = delete;
    NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace memwall::gpu

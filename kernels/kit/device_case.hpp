// One case of a family's CUDA kernels on a device (a GPU, or cuda-emu's arena): inputs uploaded,
// outputs and workspace allocated. A family's launcher (.cu, built by nvcc and for cuda-emu)
// implements it; the kit (cuda_variants.hpp) turns it into the cuda-emu and cuda variants.
// C++17 and free of CUDA headers, so that both nvcc and the host side include it.
#pragma once

#include <cstddef>
#include <string>

namespace memwall::kit {

class DeviceCase {
  public:
    virtual ~DeviceCase() = default;
    // Fills the outputs with 0xFF bytes (NaN), so elements the kernels do not write are caught.
    virtual void poison() = 0;
    // Enqueues one execution (every launch) on the default stream; in emulation it has run
    // when this returns.
    virtual void run() = 0;
    // Floats `download` writes. A family whose output is not a float array (spgemm's CSR)
    // returns 0, downloads it through its own subclass, and is checked by CudaKernel::check_case.
    virtual std::size_t output_size() const = 0;
    // Waits for the device and copies the output, converted to fp32, to `out`.
    virtual void download(float* out) const = 0;
    // What the case chose at run time that a reader needs beside its figures (a library's
    // algorithm, math mode and workspace): the instance's detail, in the case's message.
    virtual std::string detail() const { return {}; }
};

}  // namespace memwall::kit

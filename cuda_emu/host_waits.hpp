// Calls of cuda-emu's runtime API that would make the host wait on a GPU, counted; apart from
// runtime_api.hpp, whose global CUDA names must not meet the CUDA toolkit's headers.
#pragma once

namespace memwall::emu {

// Calls this thread has made so far that, on a GPU, make the host wait for the device's queued
// work: cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize, cudaFree, cudaMemcpy
// between host and device, and cudaMemcpyAsync into pageable host memory. Emulation runs
// everything at once and never waits, but a forward pass that would wait on a GPU cannot be
// queued behind the cold timer's spinning kernel (kit::CudaKernel::waits_on_host), and this
// count is how cuda-emu catches one that does not say so.
unsigned long long host_waits();

}  // namespace memwall::emu

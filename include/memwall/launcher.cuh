// What a family's CUDA launcher (.cu, built for cuda-emu and by nvcc) includes: DeviceCase,
// DeviceArray (upload and download of the element type, or of floats converted), blocks() and
// memwall::cuda::launch. Include it after the standard headers the launcher needs.
#pragma once

#include "kernels/kit/cuda/device_array.cuh"
#include "kernels/kit/device_case.hpp"

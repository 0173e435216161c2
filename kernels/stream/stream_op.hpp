// STREAM's four operations, one definition for the CPU variants (stream.hpp) and the CUDA
// kernel's host side (cuda/device_case.hpp), which nvcc compiles without the family's other headers.
#pragma once

namespace memwall {

enum class StreamOp { copy, scale, add, triad };

}  // namespace memwall

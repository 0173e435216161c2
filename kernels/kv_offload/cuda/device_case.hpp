// The host side of the CUDA kv_offload kernels (decode.cuh): the problem and tuning as they take
// them, the rules a case must keep, and the device-case factories. device_cases.cu builds them twice
// (cuda_emu, host compiler; cuda_gpu, nvcc). C++17 and free of CUDA headers, so that nvcc and the
// host side (register_cuda.cpp) both include it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "cuda_emu/options.hpp"
#include "kernels/kit/device_case.hpp"

namespace memwall::kv_cuda {

// memwall::KvProblem as the kernels see it: `pages` pages of page_tokens tokens, each page K
// then V, each [heads][page_tokens][head_dim] fp32; `selected` pages attended per step.
struct Shape {
    int pages = 1, page_tokens = 1, heads = 1, head_dim = 32, selected = 1, steps = 1;
    std::size_t page_floats() const {
        return 2 * static_cast<std::size_t>(heads) * static_cast<std::size_t>(page_tokens) *
               static_cast<std::size_t>(head_dim);
    }
    std::size_t page_bytes() const { return page_floats() * sizeof(float); }
};

// Where the kernel finds the selected pages:
// resident: the whole KV in device memory;
// zero_copy: the whole KV in mapped pinned host memory, read by the kernel over the bus;
// staged: per step the CPU gathers the pages into a pinned buffer, one copy to the device, then
//   the kernel;
// pipelined: as staged in chunks of pages, the copy of chunk i+1 (copy stream) overlapping the
//   kernel on chunk i (compute stream).
enum class Method { resident, zero_copy, staged, pipelined };

struct Tuning {
    int splits = 8;       // blocks per head; with `warps`, splits × warps partial outputs per head
    int warps = 4;        // warps per block, each its own share of the tokens
    int misalign = 0;     // zero_copy: bytes the pages are placed past a 128-byte boundary
    int chunk_pages = 4;  // pipelined: pages per copy and kernel
};

inline constexpr int kMaxSplits = 1024;
inline constexpr int kMaxGridY = 65535;
inline constexpr int kLineBytes = 128;  // a warp's read of 32 floats

// Partial outputs each attention launch writes per head, and the launches of a step.
inline int partials_per_launch(const Tuning& t) { return t.splits * t.warps; }
inline int chunks(const Shape& s, Method m, const Tuning& t) {
    return m == Method::pipelined ? (s.selected + t.chunk_pages - 1) / t.chunk_pages : 1;
}

// Throws std::invalid_argument naming the first rule the shape or the tuning breaks.
inline void validate(const Shape& s, const Tuning& t) {
    auto require = [](bool ok, const std::string& rule) {
        if (!ok) throw std::invalid_argument("cuda kv_offload: " + rule);
    };
    require(
        s.pages >= 1 && s.page_tokens >= 1 && s.heads >= 1 && s.selected >= 1 && s.selected <= s.pages && s.steps >= 1,
        "sizes must be positive and at most every page selected");
    require(s.head_dim == 32 || s.head_dim == 64 || s.head_dim == 128 || s.head_dim == 256,
            "head_dim must be 32, 64, 128 or 256: a warp reads a key or value row in whole 128-byte lines");
    require(s.heads <= kMaxGridY, "at most 65535 heads (a grid row each)");
    require(t.splits >= 1 && t.splits <= kMaxSplits, "splits must be 1 to 1024");
    require(t.warps >= 1 && t.warps <= 32, "warps must be 1 to 32");
    require(t.misalign >= 0 && t.misalign < kLineBytes && t.misalign % 4 == 0,
            "misalign must be a multiple of 4 bytes below 128");
    require(t.chunk_pages >= 1, "chunk_pages must be at least 1");
}

// Host copies of the inputs (KvWorkload's): every page, the queries ([steps][heads][head_dim])
// and the selections ([steps][selected] page numbers).
struct Inputs {
    const float* kv = nullptr;
    const float* q = nullptr;
    const std::int32_t* page_ids = nullptr;
};

using kit::DeviceCase;

namespace cuda_emu {
// A case on cuda-emu's arenas; `options` sets block order and the cache models.
std::unique_ptr<DeviceCase> make_device_case(const Shape& s, Method m, const Tuning& t, const Inputs& in,
                                             const emu::EmulationOptions& options = {});
}  // namespace cuda_emu

namespace cuda_gpu {
// The same on the current CUDA device (nvcc build; checked on an H100, docs/gpu-runs/).
std::unique_ptr<DeviceCase> make_device_case(const Shape& s, Method m, const Tuning& t, const Inputs& in);
}  // namespace cuda_gpu

}  // namespace memwall::kv_cuda

// What a family writes for one CUDA kernel, and the kit turns into its cuda-emu and cuda
// variants: instances that poison, run and download through the family's DeviceCase, check
// against the family's reference, count the emulator's traffic (cuda-emu), and time with CUDA
// events after an L2 flush inside an NVTX range (cuda, gpu/).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/catalogue.hpp"
#include "kernels/kit/device_case.hpp"

namespace memwall::kit {

struct CudaKernel {
    std::string name;
    std::string description;
    std::vector<Axis> problem_axes;  // the kernel's own (Variant::problem_axes)
    std::vector<Axis> tunables;
    std::vector<Constraint> constraints;
    std::vector<std::string> default_axes;      // both backends (Variant::default_axes)
    std::vector<std::string> emu_default_axes;  // cuda-emu first: problems emulation runs in seconds
    // Non-empty when emulation cannot run the kernel (tensor cores, cp.async, TMA, PTX): then
    // only the cuda variant is added, and this says why.
    std::string gpu_only_reason;
    // The forward pass makes the host wait for the device (spgemm copies its row counts back to
    // size the output). Such work cannot be queued behind the cold timer's spinning kernel, which
    // holds the stream until the host has queued everything: it is timed without it, launch gaps
    // included, as nvbench's `sync` tag does. cuda-emu counts the waits (emu::host_waits), and a
    // checked run that waits without this set fails with std::logic_error.
    bool waits_on_host = false;
    // Where and when the kernel's GPU test (every variant against the reference, on the device)
    // last passed, one of gpu_runs below; empty while it has not: the cuda variant's description
    // says which.
    std::string_view checked_on_gpu;
    // The model (Variant's fields of the same names): `model` from the point alone, or, for a
    // family whose counts follow from its inputs (spgemm's products depend on the matrix),
    // `input_model` from the workload as well, which is then used instead.
    std::function<std::vector<Counter>(const Params& point, const MemoryHierarchy&)> model;
    std::function<std::vector<Counter>(const Workload&, const Params& point, const MemoryHierarchy&)> input_model;
    // The kernel's device case for a point on cuda-emu, and on the GPU (empty when memwall is
    // built without CUDA). std::invalid_argument from them becomes a usage error.
    std::function<std::unique_ptr<DeviceCase>(const Workload&, const Params&point)> emu, gpu;
    // The check, exactly one of two. `check` compares a float output, which the instance
    // downloads after each checked run (DeviceCase::output_size floats, DeviceCase::download).
    std::function<Check(const Workload&, const float* out)> check;
    // `check_case`, for an output that is not a float array (spgemm's CSR of run-dependent
    // size): given the device case after the checked run, it downloads the output through the
    // family's own DeviceCase subclass and compares it; the instance then never calls
    // output_size or download. The harness checks right after the run it checks.
    std::function<Check(const Workload&, const DeviceCase&)> check_case;
    // Counters of the output of the last run, from the device case, stored with the case: what an
    // approximate method's output costs in accuracy (topk_sparse's approx.rel_l2). May be empty.
    std::function<std::vector<Counter>(const Workload&, const DeviceCase&)> output_counters;
    // The check compares nothing (Variant::unchecked).
    bool unchecked = false;
};

// GPU runs that checked kernels, each with its report under docs/gpu-runs/.
namespace gpu_runs {
inline constexpr std::string_view kH100_2026_11_27 = "an NVIDIA H100 80GB HBM3 on 2026-11-27";
}  // namespace gpu_runs

// Adds the cuda-emu variant (unless the kernel is GPU-only) and the cuda variant to `family`.
// Throws std::logic_error unless exactly one of check and check_case, and one of model and
// input_model, is set.
void add_cuda_variants(Catalogue& catalogue, const std::string& family, const CudaKernel& kernel);

}  // namespace memwall::kit

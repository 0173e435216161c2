// A prepared CPU case for a kernel that writes floats: its output (poisoned with quiet NaN, so
// an element the kernel fails to write fails the check), its workspace, the kernel, and the
// workload's check. Families whose output is not an array of floats write their own Instance.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <limits>
#include <utility>

#include "core/catalogue.hpp"
#include "kernels/kit/placed_buffer.hpp"

namespace memwall::kit {

// W is the family's workload; it has `Check check(const float* out) const`.
template <class W>
class CpuInstance final : public Instance {
  public:
    using Kernel = std::function<void(const W&, float* out, float* workspace)>;

    // The output and the workspace are placed in slots `out_slot` and `workspace_slot`, apart
    // from the workload's inputs (kit/placed_buffer.hpp).
    CpuInstance(const W& w, std::size_t out_floats, std::size_t workspace_floats, Kernel kernel, std::size_t out_slot,
                std::size_t workspace_slot)
        : w_(w),
          out_(out_floats, PlacedAllocator<float>(out_slot)),
          workspace_(workspace_floats, PlacedAllocator<float>(workspace_slot)),
          kernel_(std::move(kernel)) {}

    void poison() override { std::fill(out_.begin(), out_.end(), std::numeric_limits<float>::quiet_NaN()); }
    void run() override { kernel_(w_, out_.data(), workspace_.data()); }
    Check check() const override { return w_.check(out_.data()); }

  private:
    const W& w_;
    PlacedBuffer out_;
    PlacedBuffer workspace_;
    Kernel kernel_;
};

}  // namespace memwall::kit

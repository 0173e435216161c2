// FLOP and byte models of the conv family's CPU variants (model.cpp).
#pragma once

#include <string_view>
#include <vector>

#include "kernels/conv/conv.hpp"
#include "kernels/conv/blocking.hpp"

namespace memwall {

namespace conv_counters {
// The filter rearranged once, before any run, for a variant's kernel (weights, as inference
// keeps them): reported apart from workspace.bytes, which is what each run needs besides its
// input, filter and output.
inline constexpr std::string_view kPackedFilter = "filter.packed.bytes";
}  // namespace conv_counters

std::vector<Counter> direct_model(const ConvProblem& p, const conv_cpu::Blocking& b, const MemoryHierarchy& mh);
std::vector<Counter> im2win_model(const ConvProblem& p, const conv_cpu::Blocking& b, const MemoryHierarchy& mh);
std::vector<Counter> im2col_gemm_model(const ConvProblem& p, const MemoryHierarchy& mh);
std::vector<Counter> onednn_model(const ConvProblem& p, const MemoryHierarchy& mh);

}  // namespace memwall

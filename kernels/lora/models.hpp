// FLOP and byte models of the lora family's CPU variants (model.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/lora/lora.hpp"
#include "metrics/counter.hpp"
#include "metrics/memory_hierarchy.hpp"

namespace memwall {

enum class LoraMethod { base, unfused, fused, multi_adapter };

// The passes' traffic from DRAM: each pass streams its operands once (the GEMM libraries' own
// blocking inside a GEMM is not modelled). What separates the variants is the passes: unfused
// reads X three times and moves Y's size four more times; fused reads X twice and Y twice more
// (read and written by the LoRA pass after the base GEMM).
// `group`: multi_adapter's adapters per batched call (each call streams W once; 0: all in one).
std::vector<Counter> lora_model(const LoraProblem& p, LoraMethod method, const MemoryHierarchy& mh,
                                std::int64_t group = 0);

// Calls multi_adapter makes with `group` adapters per call (0: one call).
std::int64_t adapter_calls(const LoraProblem& p, std::int64_t group);

}  // namespace memwall

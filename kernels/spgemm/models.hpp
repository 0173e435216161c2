// FLOP and byte models of the spgemm variants (model.cpp), and the input's and product's
// statistics every case stores beside them (input.*, spgemm.*).
#pragma once

#include <vector>

#include "kernels/spgemm/cpu_kernels.hpp"
#include "kernels/spgemm/spgemm.hpp"
#include "metrics/counter.hpp"
#include "metrics/memory_hierarchy.hpp"

namespace memwall {

// The accumulator a variant merges products in (GraphBLAS's methods are modelled as memwall's).
enum class SpgemmMethod { dense, hash, esc };

std::vector<Counter> spgemm_model(SpgemmMethod method, const SpgemmWorkload& w, const spgemm_cpu::Tuning& t,
                                  const MemoryHierarchy& mh, int threads);

// `cs` with the input's and the product's statistics appended (input.*, spgemm.*).
std::vector<Counter> with_product_counters(const SpgemmWorkload& w, std::vector<Counter> cs);

}  // namespace memwall

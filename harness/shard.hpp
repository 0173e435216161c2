// Splitting a sweep into disjoint shards, so that separate processes (Slurm array tasks, a
// Kubernetes Indexed Job's pods, GNU parallel's jobs) measure one part each and `memwall merge`
// joins their databases. Every shard computes the same assignment from the sweep alone: the
// costs come from the variants' models at a fixed nominal machine, never from the host's.
#pragma once

#include <string>
#include <vector>

#include "harness/sampler.hpp"
#include "harness/sweep.hpp"

namespace memwall {

// "I/N" with 0 <= I < N; throws UsageError naming the text otherwise.
Shard parse_shard(const std::string& text);
std::string to_string(const Shard& s);  // "I/N"

// The predicted seconds a case takes to measure: the sampler's minimum time, plus its runs
// (warm-up, check, the minimum samples) at the time the variant's model gives at a nominal
// machine (bytes.min at 20 GB/s, flops at 200 GFLOP/s). Equal for every case of a variant
// without a model (or whose counts need its inputs), which then round-robin.
double predicted_cost(const PlannedCase& c, const SamplerSettings& sampler);

// The shard of each case, by longest processing time first: cases by cost, the dearest first
// (ties in the given order), each to the shard with the least cost so far (ties to the lowest
// index). Equal costs thus deal the cases round-robin in their order.
std::vector<std::size_t> assign_shards(const std::vector<double>& costs, std::size_t shards);

}  // namespace memwall

// The analytic byte model every variant gives (counters bytes.<level>, source model): its
// traffic as streams, each served from the innermost level that holds its working set.
#pragma once

#include <vector>

#include "metrics/counter.hpp"
#include "metrics/memory_hierarchy.hpp"

namespace memwall {

// One stream of a byte model: `bytes` moved, served from the innermost level whose per-thread
// capacity holds `working_set` (the data a thread re-reads between uses; infinity: dram).
struct TrafficStream {
    double working_set = 0;
    double bytes = 0;
};

// bytes.<level> counters for every level of `mh` and dram: the bytes crossing the boundary
// between a level and the ones inside it, i.e. the sum of the streams served from that level or
// from farther out. Every stream passes the innermost level (l1), so bytes.l1 is their total: a
// lower bound there, since reuse inside registers and L1-sized tiles is not listed as a stream.
std::vector<Counter> level_bytes(const MemoryHierarchy& mh, const std::vector<TrafficStream>& streams);

// flops, bytes.min (the compulsory traffic) and workspace.bytes, then level_bytes(mh, streams).
std::vector<Counter> byte_model(double flops, double min_bytes, double workspace_bytes, const MemoryHierarchy& mh,
                                const std::vector<TrafficStream>& streams);

}  // namespace memwall

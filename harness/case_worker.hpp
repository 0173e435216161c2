// The worker side of isolated cases (`memwall case-worker`, started by IsolatedMeasurer): reads
// requests from `in` and answers on file descriptor `out` (harness/case_protocol.hpp), keeping
// the workload of the last problem, until end of input.
#pragma once

#include <istream>

#include "core/catalogue.hpp"
#include "metrics/memory_hierarchy.hpp"

namespace memwall {

void serve_cases(std::istream& in, int out, const Catalogue& catalogue, const MemoryHierarchy& mh);

}  // namespace memwall

// A suite's sweep as `memwall run` arguments, so that `memwall slurm --suite FILE` measures a
// suite in shards as it measures a sweep typed on its command line.
#pragma once

#include <string>
#include <vector>

#include "harness/suite.hpp"

namespace memwall::cli {

// The sweep (families, variants, backends, axes, zips, seed, sampler), the repetitions and their
// interleaving, and the tag suite=NAME that ci gives its runs. Throws UsageError for a sampler
// setting `run` has no option for (max_samples other than its default).
std::vector<std::string> suite_run_args(const Suite& suite);

}  // namespace memwall::cli

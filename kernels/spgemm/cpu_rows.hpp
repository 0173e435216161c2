// The loop the spgemm CPU kernels (cpu_kernels.hpp) run each phase in: OpenMP threads take the
// row ranges one at a time, each thread with its own scratch.
#pragma once

#include <omp.h>

#include <cstdint>
#include <vector>

#include "kernels/spgemm/cpu_kernels.hpp"

namespace memwall::spgemm_cpu {

// Calls row(scratch, q) for every q of every range (a row of A, or a place in the list of rows
// the ranges were cut over), the ranges dealt to `threads` threads by OpenMP's dynamic schedule;
// `scratch` is the calling thread's, per_thread[its number].
template <class Scratch, class Row>
void for_each_row(const std::vector<RowRange>& ranges, std::vector<Scratch>& per_thread, int threads, Row row) {
    const auto n = static_cast<std::int64_t>(ranges.size());
#pragma omp parallel num_threads(threads)
    {
        Scratch& s = per_thread[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 1)
        for (std::int64_t r = 0; r < n; ++r)
            for (std::int64_t q = ranges[static_cast<std::size_t>(r)].begin;
                 q < ranges[static_cast<std::size_t>(r)].end; ++q)
                row(s, q);
    }
}

}  // namespace memwall::spgemm_cpu

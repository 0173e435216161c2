// gather: y[i] = x[index[i]], n lookups into a table of m floats, the indices in order (stride 1)
// or random. The memory-bound core of embedding lookups and sparse kernels: sequential indices
// stream the table, random ones touch a whole cache line (a 32-byte sector on a GPU) per float.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <memwall/memwall.hpp>

struct GatherProblem {
    std::int64_t n = 1, m = 1;
    bool random = false;
    static GatherProblem from(const memwall::Params& p);
};

class GatherWorkload : public memwall::Workload {
  public:
    GatherWorkload(const GatherProblem& p, std::uint64_t seed);
    const GatherProblem& problem() const { return p_; }
    const std::vector<float>& table() const { return x_; }
    const std::vector<std::int32_t>& index() const { return index_; }
    // Every element of y finite and equal to its table entry (a gather copies: exact).
    memwall::Check check(const float* y) const;

  private:
    GatherProblem p_;
    std::vector<float> x_;
    std::vector<std::int32_t> index_;
};

// The stream family: STREAM's four kernels (McCalpin), the first thing a performance engineer
// runs on a new machine. With inputs x and y and output z of n fp32 elements and s = 3:
//   copy   z = x            scale  z = s x
//   add    z = x + y        triad  z = x + s y
// The operation is a problem axis (what is computed); the variants are ways to compute it.
// Bytes follow STREAM's count (each array read or written once: copy and scale 8n, add and
// triad 12n); each variant's model adds what it really moves (a store's write-allocate).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "core/isa.hpp"
#include "kernels/kit/placed_buffer.hpp"
#include "kernels/stream/stream_op.hpp"
#include "metrics/counter.hpp"
#include "metrics/memory_hierarchy.hpp"

namespace memwall {

StreamOp stream_op_from(const std::string& name);  // throws UsageError
inline constexpr float kStreamScalar = 3.0f;

// Placement slots of the arrays (kit/placed_buffer.hpp).
namespace stream_slot {
inline constexpr std::size_t kX = 0, kY = 1, kZ = 2;
}

struct StreamProblem {
    StreamOp op = StreamOp::triad;
    std::int64_t n = 1;

    // Reads the family's problem axes (op, n).
    static StreamProblem from(const Params& p);
    bool reads_y() const { return op == StreamOp::add || op == StreamOp::triad; }
    double flops() const;         // 0, n, n, 2n
    double stream_bytes() const;  // STREAM's count: 4 bytes per element of each array touched
};

// Inputs uniform in [1, 2) (never zero, no cancellation) from a seeded generator. The float64
// reference is computed from them in check(); every element is checked.
class StreamWorkload : public Workload {
  public:
    // fp32 rounds each product and sum once: at most 2 roundings of unit roundoff 2^-24 per
    // element, and no cancellation (positive inputs), so the relative L2 error is below 2^-23.
    static constexpr double kTolerance = 0x1p-23;

    StreamWorkload(const StreamProblem& p, std::uint64_t seed);
    const StreamProblem& problem() const { return problem_; }
    const float* x() const { return x_.data(); }
    const float* y() const { return y_.data(); }
    // Every element of `z` (n floats) finite, and the relative L2 error below kTolerance.
    Check check(const float* z) const;

  private:
    StreamProblem problem_;
    kit::PlacedBuffer x_{kit::PlacedAllocator<float>(stream_slot::kX)};
    kit::PlacedBuffer y_{kit::PlacedAllocator<float>(stream_slot::kY)};
};

// The CPU kernels, built once per ISA (kit/kernel_isa.hpp); the catalogue's variants run the
// active ISA's.
// loop: the operation as a plain OpenMP loop the compiler vectorises, with ordinary stores
// (each line of z is read before it is written: write-allocate).
template <Isa isa>
void stream_loop(const StreamProblem& p, const float* x, const float* y, float* z);
// nontemporal: vector loads and non-temporal (streaming) stores, which write z to memory without
// reading it first; each thread streams one contiguous part.
template <Isa isa>
void stream_nontemporal(const StreamProblem& p, const float* x, const float* y, float* z);

// Models: flops, bytes.min (STREAM's count), workspace 0, bytes per level. Ordinary stores add
// the write-allocate read of z; non-temporal ones do not.
std::vector<Counter> stream_model(const StreamProblem& p, const MemoryHierarchy& mh, bool write_allocate);

}  // namespace memwall

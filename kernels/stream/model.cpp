// The stream byte model: x (and y) read and z written once, served from the level that holds a
// thread's share of the arrays; ordinary stores read each line of z before writing it.
#include "kernels/stream/stream.hpp"
#include "metrics/byte_model.hpp"

namespace memwall {

std::vector<Counter> stream_model(const StreamProblem& p, const MemoryHierarchy& mh, bool write_allocate) {
    const double array = 4.0 * static_cast<double>(p.n);
    const double footprint = p.stream_bytes();
    const double moved = footprint + (write_allocate ? array : 0.0);
    return byte_model(p.flops(), footprint, 0, mh, {{footprint / std::max(1, mh.cpus), moved}});
}

}  // namespace memwall

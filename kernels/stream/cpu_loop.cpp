// stream/loop: STREAM's loops as written in C, vectorised by the compiler for each ISA, ordinary
// stores.
#include "kernels/stream/stream.hpp"
#include "kernels/kit/kernel_isa.hpp"

MEMWALL_KERNEL_BEGIN

namespace memwall {

template <>
void stream_loop<kit::kKernelIsa>(const StreamProblem& p, const float* x, const float* y, float* z) {
    const std::int64_t n = p.n;
    const float s = kStreamScalar;
    switch (p.op) {
        case StreamOp::copy:
#pragma omp parallel for schedule(static)
            for (std::int64_t i = 0; i < n; ++i) z[i] = x[i];
            break;
        case StreamOp::scale:
#pragma omp parallel for schedule(static)
            for (std::int64_t i = 0; i < n; ++i) z[i] = s * x[i];
            break;
        case StreamOp::add:
#pragma omp parallel for schedule(static)
            for (std::int64_t i = 0; i < n; ++i) z[i] = x[i] + y[i];
            break;
        case StreamOp::triad:
#pragma omp parallel for schedule(static)
            for (std::int64_t i = 0; i < n; ++i) z[i] = x[i] + s * y[i];
            break;
    }
}

}  // namespace memwall
MEMWALL_KERNEL_END

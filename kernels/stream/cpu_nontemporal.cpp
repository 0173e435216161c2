// stream/nontemporal: vector loads and streaming stores. Each thread takes one contiguous part
// of the arrays, whose bounds are whole vectors from the first element z aligns (PlacedBuffer
// aligns to 64 bytes), so every store in it is an aligned non-temporal store; the few elements
// before and after those parts are written with ordinary stores.
#include <omp.h>

#include "kernels/stream/stream.hpp"
#include "kernels/kit/kernel_isa.hpp"

MEMWALL_KERNEL_BEGIN
#include "kernels/kit/simd.hpp"

namespace memwall {

namespace {

using namespace kit::simd;

template <StreamOp Op>
inline float scalar(float x, float y) {
    if constexpr (Op == StreamOp::copy) return x;
    if constexpr (Op == StreamOp::scale) return kStreamScalar * x;
    if constexpr (Op == StreamOp::add) return x + y;
    return x + kStreamScalar * y;
}

template <StreamOp Op>
inline vf vector(const float* x, const float* y) {
    if constexpr (Op == StreamOp::copy) return load(x);
    if constexpr (Op == StreamOp::scale) return splat(kStreamScalar) * load(x);
    if constexpr (Op == StreamOp::add) return load(x) + load(y);
    return load(x) + splat(kStreamScalar) * load(y);
}

template <StreamOp Op>
void run(std::int64_t n, const float* x, const float* y, float* z) {
    // Elements before the first vector-aligned element of z, and the aligned body.
    const auto misalign = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(z) % sizeof(vf) / sizeof(float));
    const std::int64_t head = std::min<std::int64_t>(n, misalign ? lanes - misalign : 0);
    const std::int64_t vectors = (n - head) / lanes;
    for (std::int64_t i = 0; i < head; ++i) z[i] = scalar<Op>(x[i], y ? y[i] : 0.0f);
#pragma omp parallel
    {
        const std::int64_t threads = omp_get_num_threads(), t = omp_get_thread_num();
        const std::int64_t lo = head + vectors * t / threads * lanes, hi = head + vectors * (t + 1) / threads * lanes;
        for (std::int64_t i = lo; i < hi; i += lanes) stream_store(z + i, vector<Op>(x + i, y ? y + i : nullptr));
        stream_fence();
    }
    for (std::int64_t i = head + vectors * lanes; i < n; ++i) z[i] = scalar<Op>(x[i], y ? y[i] : 0.0f);
}

}  // namespace

template <>
void stream_nontemporal<kit::kKernelIsa>(const StreamProblem& p, const float* x, const float* y, float* z) {
    switch (p.op) {
        case StreamOp::copy: return run<StreamOp::copy>(p.n, x, nullptr, z);
        case StreamOp::scale: return run<StreamOp::scale>(p.n, x, nullptr, z);
        case StreamOp::add: return run<StreamOp::add>(p.n, x, y, z);
        case StreamOp::triad: return run<StreamOp::triad>(p.n, x, y, z);
    }
}

}  // namespace memwall
MEMWALL_KERNEL_END

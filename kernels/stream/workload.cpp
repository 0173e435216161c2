// The stream workload: seeded inputs and the check against the float64 reference.
#include <random>

#include "core/errors.hpp"
#include "kernels/kit/output_check.hpp"
#include "kernels/stream/stream.hpp"

namespace memwall {

StreamOp stream_op_from(const std::string& name) {
    if (name == "copy") return StreamOp::copy;
    if (name == "scale") return StreamOp::scale;
    if (name == "add") return StreamOp::add;
    if (name == "triad") return StreamOp::triad;
    throw UsageError("stream: op must be copy, scale, add or triad, got '" + name + "'");
}

StreamProblem StreamProblem::from(const Params& p) {
    StreamProblem s;
    s.op = stream_op_from(p.str("op"));
    s.n = p.integer("n");
    if (s.n < 1) throw UsageError("stream: n must be positive");
    return s;
}

double StreamProblem::flops() const {
    const auto e = static_cast<double>(n);
    switch (op) {
        case StreamOp::copy: return 0;
        case StreamOp::scale:
        case StreamOp::add: return e;
        case StreamOp::triad: return 2 * e;
    }
    return 0;
}

double StreamProblem::stream_bytes() const { return 4.0 * static_cast<double>(n) * (reads_y() ? 3 : 2); }

StreamWorkload::StreamWorkload(const StreamProblem& p, std::uint64_t seed) : problem_(p) {
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<float> dist(1.0f, 2.0f);
    const auto n = static_cast<std::size_t>(p.n);
    x_.resize(n);
    for (float& e : x_) e = dist(gen);
    if (p.reads_y()) {
        y_.resize(n);
        for (float& e : y_) e = dist(gen);
    }
}

Check StreamWorkload::check(const float* z) const {
    const StreamProblem& p = problem_;
    const auto size = static_cast<std::size_t>(p.n);
    if (const std::size_t i = kit::first_not_finite(size, [&](std::size_t j) { return z[j]; }); i < size)
        return kit::not_finite("z[" + std::to_string(i) + "]", z[i], kTolerance);
    const double s = kStreamScalar;
    kit::RelativeL2 l2;
    for (std::size_t i = 0; i < size; ++i) {
        const double x = x_[i];
        const double y = p.reads_y() ? y_[i] : 0.0;
        double ref = 0;
        switch (p.op) {
            case StreamOp::copy: ref = x; break;
            case StreamOp::scale: ref = s * x; break;
            case StreamOp::add: ref = x + y; break;
            case StreamOp::triad: ref = x + s * y; break;
        }
        l2.add(z[i], ref);
    }
    return l2.result(kTolerance);
}

}  // namespace memwall

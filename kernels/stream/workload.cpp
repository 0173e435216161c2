// The stream workload: seeded inputs and the check against the float64 reference.
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

#include "core/errors.hpp"
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
    Check c;
    c.tolerance = tolerance;
    const double s = stream_scalar;
    double err = 0, norm = 0;
    for (std::int64_t i = 0; i < p.n; ++i) {
        if (!std::isfinite(z[i])) {
            char msg[96];
            std::snprintf(msg, sizeof msg, "z[%lld] is %g: not written or not finite", static_cast<long long>(i),
                          static_cast<double>(z[i]));
            c.message = msg;
            c.error = std::numeric_limits<double>::infinity();
            return c;
        }
        const double x = x_[static_cast<std::size_t>(i)];
        const double y = p.reads_y() ? y_[static_cast<std::size_t>(i)] : 0.0;
        double ref = 0;
        switch (p.op) {
            case StreamOp::copy: ref = x; break;
            case StreamOp::scale: ref = s * x; break;
            case StreamOp::add: ref = x + y; break;
            case StreamOp::triad: ref = x + s * y; break;
        }
        const double d = z[i] - ref;
        err += d * d;
        norm += ref * ref;
    }
    c.error = std::sqrt(err / norm);
    c.ok = c.error < c.tolerance;
    if (!c.ok) {
        char msg[96];
        std::snprintf(msg, sizeof msg, "relative L2 error %.3g exceeds %.3g", c.error, c.tolerance);
        c.message = msg;
    }
    return c;
}

}  // namespace memwall

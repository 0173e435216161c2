// The conv workload: seeded inputs, the float64 reference and the check.
#include <algorithm>
#include <cmath>
#include <random>

#include "kernels/conv/conv.hpp"
#include "kernels/kit/output_check.hpp"

namespace memwall {

ConvWorkload::ConvWorkload(const ConvProblem& p, std::uint64_t seed) : problem_(p) {
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<float> magnitude(0.25f, 1.0f);
    std::bernoulli_distribution negative(0.5);
    auto fill = [&](kit::PlacedBuffer& b, std::size_t size) {
        b.resize(size);
        for (float& e : b) e = negative(gen) ? -magnitude(gen) : magnitude(gen);
    };
    fill(input_, p.input_size());
    fill(filter_, p.filter_size());
}

double ConvWorkload::tolerance() const {
    switch (problem_.dtype) {
        case ConvDtype::bf16: return 1e-2;
        case ConvDtype::tf32: return 1e-3;
        case ConvDtype::fp32: break;
    }
    return 16.0 * std::sqrt(static_cast<double>(problem_.window())) * 0x1p-24;
}

const std::vector<double>& ConvWorkload::reference() const {
    std::call_once(reference_once_, [this] {
        reference_.assign(problem_.output_size(), 0.0);
        conv_reference(problem_, input_.data(), filter_.data(), reference_.data());
    });
    return reference_;
}

Check ConvWorkload::check(const float* out) const {
    const std::size_t size = problem_.output_size();
    if (const std::size_t i = kit::first_not_finite(size, [&](std::size_t j) { return out[j]; }); i < size)
        return kit::not_finite("out[" + std::to_string(i) + "]", out[i], tolerance());
    const std::vector<double>& ref = reference();
    kit::RelativeL2 l2;
    for (std::size_t i = 0; i < size; ++i) l2.add(out[i], ref[i]);
    return l2.result(tolerance());
}

// Output rows of one (n, k) are independent: threads take whole planes. Per tap (c, r, s) the
// valid output columns form one range, so the inner loop has no bounds checks and vectorises.
void conv_reference(const ConvProblem& p, const float* input, const float* filter, double* out) {
    const std::int64_t P = p.p(), Q = p.q();
#pragma omp parallel for collapse(2) schedule(dynamic, 1)
    for (std::int64_t n = 0; n < p.n; ++n)
        for (std::int64_t k = 0; k < p.k; ++k) {
            double* o = out + (n * p.k + k) * P * Q;
            std::fill(o, o + P * Q, 0.0);
            for (std::int64_t c = 0; c < p.c; ++c) {
                const float* in = input + (n * p.c + c) * p.h * p.w;
                const float* f = filter + (k * p.c + c) * p.r * p.s;
                for (std::int64_t r = 0; r < p.r; ++r)
                    for (std::int64_t s = 0; s < p.s; ++s) {
                        const double wt = f[r * p.s + s];
                        const auto [q0, q1] = conv_valid_columns(p, s);
                        for (std::int64_t y = 0; y < P; ++y) {
                            const std::int64_t row = y * p.stride + r - p.pad;
                            if (row < 0 || row >= p.h) continue;
                            const float* x = in + row * p.w + s - p.pad;
                            double* oy = o + y * Q;
                            for (std::int64_t q = q0; q < q1; ++q) oy[q] += wt * x[q * p.stride];
                        }
                    }
            }
        }
}

}  // namespace memwall

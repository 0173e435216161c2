// Byte models of the CPU variants (profiler/byte_model.hpp): the compulsory traffic from DRAM,
// then each variant's own re-reads, each served from the level that holds its working set.
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/conv/cpu_kernels.hpp"
#include "kernels/conv/models.hpp"
#include "profiler/byte_model.hpp"

namespace memwall {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

double d(std::int64_t x) { return static_cast<double>(x); }

std::vector<Counter> with_packed_filter(std::vector<Counter> cs, double bytes) {
    cs.push_back({std::string(conv_counters::packed_filter), bytes, "B", CounterSource::model});
    return cs;
}

// The register tiles' own traffic (cpu_tiles.hpp), over a source of `source_image` bytes per
// image (the input, or the window tensor) that every tile row of a k tile sweeps again.
std::vector<TrafficStream> tile_streams(const ConvProblem& p, const conv_cpu::Blocking& b, double source_image,
                                        double row_bytes, int threads) {
    const double ktiles = std::ceil(d(p.k) / b.kb), qtiles = std::ceil(d(p.q()) / b.wb);
    const double taps = d(p.window()), out = 4.0 * d(p.output_size());
    const double lanes = conv_cpu::lanes(active_isa());
    const double kpad = std::ceil(d(p.k) / lanes) * lanes;
    const double csteps = std::ceil(d(p.c) / b.cb);
    const double cb = std::min<double>(b.cb, d(p.c));
    return {
        // The source again for every k tile after the first: one image apart.
        {source_image / threads, (ktiles - 1) * source_image * d(p.n)},
        // One broadcast per output column, tap and k tile, from the rows of one channel step.
        {cb * row_bytes, 4.0 * d(p.n) * ktiles * d(p.p()) * d(p.q()) * taps},
        // Each tile loads its k tile's filter for its channel step, reused along the row.
        {4.0 * b.kb * cb * d(p.r * p.s), 4.0 * d(p.n) * d(p.p()) * qtiles * kpad * taps},
        // Partial sums through the output between channel steps, one row of a k tile apart.
        {4.0 * b.kb * d(p.q()), 2.0 * (csteps - 1) * out},
    };
}

std::vector<TrafficStream> plus(std::vector<TrafficStream> a, const std::vector<TrafficStream>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

}  // namespace

std::vector<Counter> direct_model(const ConvProblem& p, const conv_cpu::Blocking& b, const MemoryHierarchy& mh) {
    const int threads = std::max(1, mh.cpus);
    const double image = 4.0 * d(p.c * p.h * p.w);
    auto streams = plus({{inf, p.min_bytes()}}, tile_streams(p, b, image, 4.0 * d(p.r * p.w), threads));
    return with_packed_filter(byte_model(p.flops(), p.min_bytes(), 0, mh, streams),
                              4.0 * d(static_cast<std::int64_t>(conv_cpu::packed_filter_floats(p, active_isa()))));
}

std::vector<Counter> im2win_model(const ConvProblem& p, const conv_cpu::Blocking& b, const MemoryHierarchy& mh) {
    const int threads = std::max(1, mh.cpus);
    const double win = 4.0 * d(static_cast<std::int64_t>(conv_cpu::im2win_floats(p)));
    const double image = win / d(p.n);
    // The transform writes the tensor and the first k tile reads it back: twice its size.
    auto streams = plus({{inf, p.min_bytes()}, {image / threads, 2.0 * win}},
                        tile_streams(p, b, image, 4.0 * d((p.w + 2 * p.pad) * p.r), threads));
    return with_packed_filter(byte_model(p.flops(), p.min_bytes(), win, mh, streams),
                              4.0 * d(static_cast<std::int64_t>(conv_cpu::packed_filter_floats(p, active_isa()))));
}

std::vector<Counter> im2col_gemm_model(const ConvProblem& p, const MemoryHierarchy& mh) {
    const int threads = std::max(1, mh.cpus);
    const double col = 4.0 * d(static_cast<std::int64_t>(conv_cpu::im2col_floats(p)));
    const double image = col / d(p.n);
    const double filter = 4.0 * d(static_cast<std::int64_t>(p.filter_size()));
    // im2col writes the buffer, sgemm reads it back (packing its panels) and reads the filter
    // once per image. OpenBLAS's own blocking inside the GEMM is not modelled.
    const std::vector<TrafficStream> streams = {
        {inf, p.min_bytes()}, {image / threads, 2.0 * col}, {filter / threads, filter * d(p.n - 1)}};
    return with_packed_filter(byte_model(p.flops(), p.min_bytes(), col, mh, streams), 0);
}

std::vector<Counter> onednn_model(const ConvProblem& p, const MemoryHierarchy& mh) {
    const int threads = std::max(1, mh.cpus);
    const conv_cpu::OnednnPlan plan = conv_cpu::onednn_plan(p);
    // A converted tensor is written and read once more per run; oneDNN's blocking within the
    // kernel is its own and not modelled.
    const std::vector<TrafficStream> streams = {{inf, p.min_bytes()},
                                                {plan.reorder_bytes / d(p.n) / threads, 2.0 * plan.reorder_bytes}};
    return with_packed_filter(
        byte_model(p.flops(), p.min_bytes(), plan.scratchpad_bytes + plan.reorder_bytes, mh, streams),
        plan.weights_bytes);
}

}  // namespace memwall

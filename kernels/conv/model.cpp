// Byte models of the CPU variants (metrics/byte_model.hpp): the compulsory traffic, then each
// variant's own re-reads, each served from the level that holds its working set.
#include <algorithm>
#include <cmath>

#include "kernels/conv/cpu_kernels.hpp"
#include "kernels/conv/models.hpp"
#include "metrics/byte_model.hpp"

namespace memwall {

namespace {

double d(std::int64_t x) { return static_cast<double>(x); }

std::vector<Counter> with_packed_filter(std::vector<Counter> cs, double bytes) {
    cs.push_back({std::string(conv_counters::kPackedFilter), bytes, "B", CounterSource::model});
    return cs;
}

// Floats of one input channel a tile of `cols` output columns reads: R rows (direct) or one
// window row (im2win) of (cols - 1) * stride + S columns, fewer where a stride past S skips some.
double tile_span(const ConvProblem& p, double cols) {
    return d(p.r) * std::min((cols - 1) * d(p.stride) + d(p.s), cols * d(p.s));
}

// The register tiles' own traffic (cpu_tiles.hpp), in its loop order (k_tiles_innermost), over a
// source of `source_image` bytes per image (the input, or the window tensor) whose rows for one
// output row and input channel are `row_bytes`. A tile takes its input from L1 once its span is
// there: every tap of a column broadcasts from the lines the tile brought in, so the traffic from
// farther out is the span, not one read per broadcast.
std::vector<TrafficStream> tile_streams(const ConvProblem& p, const conv_cpu::Blocking& b, double source_image,
                                        double row_bytes) {
    const Isa isa = active_isa();
    const conv_cpu::ColumnTiles columns = conv_cpu::column_tiles(p.q(), std::max(1, b.wb));  // a refused Wb too
    const double ktiles = std::ceil(d(p.k) / b.kb), qtiles = d(columns.count);
    const double rows = d(p.n) * d(p.p()), out = 4.0 * d(p.output_size());
    const double csteps = std::ceil(d(p.c) / b.cb), cb = std::min<double>(b.cb, d(p.c));
    const double span = d(columns.wider) * tile_span(p, d(columns.width + 1)) +  // a row's tiles
                        d(columns.count - columns.wider) * tile_span(p, d(columns.width));
    const double taps = d(p.r * p.s),
                 filter = 4.0 * d(static_cast<std::int64_t>(conv_cpu::packed_filter_floats(p, isa)));
    const double k_tile_filter = 4.0 * b.kb * d(p.c) * taps, step_filter = 4.0 * b.kb * cb * taps;
    const bool k_inner = conv_cpu::k_tiles_innermost(p, isa, source_image);
    return {
        // The source again for every k tile after the first: the rows of one output row (and a k
        // tile's filter) apart with k tiles innermost, a whole image apart otherwise.
        {k_inner ? d(p.c) * row_bytes + k_tile_filter : source_image, (ktiles - 1) * source_image * d(p.n)},
        // Each tile's span of each input channel, from the rows of its channel step.
        {cb * row_bytes, 4.0 * rows * ktiles * d(p.c) * span},
        // A channel step's filter, loaded by each tile of the row: the first tile from where the
        // filter lives between rows (all of it with k tiles innermost, the k tile's otherwise),
        // the others from where the step stays.
        {k_inner ? filter : k_tile_filter, rows * filter},
        {step_filter, (qtiles - 1) * rows * filter},
        // Partial sums through the output between channel steps, one row of a k tile apart.
        {4.0 * b.kb * d(p.q()), 2.0 * (csteps - 1) * out},
    };
}

// Input, filter and output once per run (bytes.min). Runs repeat, so they come from the level
// that holds all a run touches (`footprint`: those, the workspace and the packed filter, shared by
// the threads), as stream's model has it: from DRAM only when the footprint outgrows the caches.
// Counted from DRAM always, conv12's 9.4 MB filter, in a 480 MiB last-level cache between runs,
// read 102-255% of the DRAM roof.
TrafficStream compulsory(const ConvProblem& p, double footprint, const MemoryHierarchy& mh) {
    return {footprint / std::max(1, mh.cpus), p.min_bytes()};
}

std::vector<TrafficStream> plus(std::vector<TrafficStream> a, const std::vector<TrafficStream>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

}  // namespace

std::vector<Counter> direct_model(const ConvProblem& p, const conv_cpu::Blocking& b, const MemoryHierarchy& mh) {
    const double image = 4.0 * d(p.c * p.h * p.w);
    const double packed = 4.0 * d(static_cast<std::int64_t>(conv_cpu::packed_filter_floats(p, active_isa())));
    auto streams = plus({compulsory(p, p.min_bytes() + packed, mh)}, tile_streams(p, b, image, 4.0 * d(p.r * p.w)));
    return with_packed_filter(byte_model(p.flops(), p.min_bytes(), 0, mh, streams), packed);
}

std::vector<Counter> im2win_model(const ConvProblem& p, const conv_cpu::Blocking& b, const MemoryHierarchy& mh) {
    const int threads = std::max(1, mh.cpus);
    const double win = 4.0 * d(static_cast<std::int64_t>(conv_cpu::im2win_floats(p)));
    const double image = win / d(p.n);
    const double packed = 4.0 * d(static_cast<std::int64_t>(conv_cpu::packed_filter_floats(p, active_isa())));
    // The transform writes the tensor and the first k tile reads it back: twice its size.
    auto streams = plus({compulsory(p, p.min_bytes() + win + packed, mh), {image / threads, 2.0 * win}},
                        tile_streams(p, b, image, 4.0 * d((p.w + 2 * p.pad) * p.r)));
    return with_packed_filter(byte_model(p.flops(), p.min_bytes(), win, mh, streams), packed);
}

std::vector<Counter> im2col_gemm_model(const ConvProblem& p, const MemoryHierarchy& mh) {
    const int threads = std::max(1, mh.cpus);
    const double col = 4.0 * d(static_cast<std::int64_t>(conv_cpu::im2col_floats(p)));
    const double image = col / d(p.n);
    const double filter = 4.0 * d(static_cast<std::int64_t>(p.filter_size()));
    // im2col writes the buffer, sgemm reads it back (packing its panels) and reads the filter
    // once per image. OpenBLAS's own blocking inside the GEMM is not modelled.
    const std::vector<TrafficStream> streams = {
        compulsory(p, p.min_bytes() + col, mh), {image / threads, 2.0 * col}, {filter / threads, filter * d(p.n - 1)}};
    return with_packed_filter(byte_model(p.flops(), p.min_bytes(), col, mh, streams), 0);
}

std::vector<Counter> onednn_model(const ConvProblem& p, const MemoryHierarchy& mh) {
    const int threads = std::max(1, mh.cpus);
    const conv_cpu::OnednnPlan plan = conv_cpu::onednn_plan(p);
    // A converted tensor is written and read once more per run; oneDNN's blocking within the
    // kernel is its own and not modelled.
    const double footprint = p.min_bytes() + plan.scratchpad_bytes + plan.reorder_bytes + plan.weights_bytes;
    const std::vector<TrafficStream> streams = {compulsory(p, footprint, mh),
                                                {plan.reorder_bytes / d(p.n) / threads, 2.0 * plan.reorder_bytes}};
    return with_packed_filter(
        byte_model(p.flops(), p.min_bytes(), plan.scratchpad_bytes + plan.reorder_bytes, mh, streams),
        plan.weights_bytes);
}

}  // namespace memwall

#include "kernels/conv/cuda/traffic_model.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>

#include "kernels/conv/register_cuda.hpp"
#include "kernels/kit/emu_hierarchy.hpp"
#include "metrics/byte_model.hpp"

namespace memwall {

namespace {

using conv_cuda::Algorithm;
using conv_cuda::conv_tc_channels;
using conv_cuda::Tuning;
using I = std::int64_t;

I ceil_div(I a, I b) { return (a + b - 1) / b; }

// Outputs o in [lo, hi] whose tap t reads inside [0, size): 0 <= o*stride + t - pad < size.
I valid_outputs(I lo, I hi, I stride, I t, I pad, I size) {
    const I first = std::max(lo, t >= pad ? I{0} : ceil_div(pad - t, stride));
    const I top = size - 1 + pad - t;
    if (top < 0) return 0;
    return std::max(I{0}, std::min(hi, top / stride) - first + 1);
}

// Taps (o, t) of outputs lo..hi that read inside the input, along one dimension.
I valid_taps(I lo, I hi, I stride, I taps, I pad, I size) {
    I n = 0;
    for (I t = 0; t < taps; ++t) n += valid_outputs(lo, hi, stride, t, pad, size);
    return n;
}

// Distinct input indices those taps read: a range when windows overlap or abut, else every tap.
I touched(I lo, I hi, I stride, I taps, I pad, I size) {
    if (stride > taps) return valid_taps(lo, hi, stride, taps, pad, size);
    const I first = std::max(I{0}, lo * stride - pad), last = std::min(size - 1, hi * stride + taps - 1 - pad);
    return std::max(I{0}, last - first + 1);
}

// Input elements per channel that the output pixels [a, b) of one image read (a <= b - 1 < P*Q):
// the rows their output rows read times the columns their columns read (all of them once the run
// spans two output rows: an estimate).
double image_run_footprint(const ConvProblem& p, I a, I b) {
    const I q = p.q(), p0 = a / q, p1 = (b - 1) / q;
    const I q0 = p0 == p1 ? a % q : 0, q1 = p0 == p1 ? (b - 1) % q : q - 1;
    return static_cast<double>(touched(p0, p1, p.stride, p.r, p.pad, p.h)) *
           static_cast<double>(touched(q0, q1, p.stride, p.s, p.pad, p.w));
}

// The same for a run [a, b) of the N*P*Q pixels, which may cross images.
double run_footprint(const ConvProblem& p, I a, I b) {
    const I pq = p.p() * p.q();
    double f = 0;
    while (a < b) {
        const I end = std::min(b, (a / pq + 1) * pq);
        f += image_run_footprint(p, a % pq, (end - 1) % pq + 1);
        a = end;
    }
    return f;
}

// Sum of run_footprint over the runs of `run` pixels that tile N*P*Q. Runs repeat with the
// images every lcm(P*Q, run) pixels: one period is summed, then the remainder.
double tiled_footprint(const ConvProblem& p, I run) {
    const I pq = p.p() * p.q(), total = p.n * pq, period = std::lcm(pq, run);
    const I periods = total / period;
    double one = 0, rest = 0;
    for (I a = 0; a < std::min(period, total); a += run) one += run_footprint(p, a, std::min(a + run, total));
    if (periods > 0)
        for (I a = periods * period; a < total; a += run) rest += run_footprint(p, a, std::min(a + run, total));
    return periods > 0 ? static_cast<double>(periods) * one + rest : one;
}

}  // namespace

ConvCudaTraffic conv_cuda_traffic(const ConvProblem& p, const Tuning& t) {
    const I n = p.n, c = p.c, k = p.k, rs = p.r * p.s, depth = p.window(), pq = p.p() * p.q();
    // Valid taps over all output pixels of one channel of one image.
    const double taps = static_cast<double>(valid_taps(0, p.p() - 1, p.stride, p.r, p.pad, p.h)) *
                        static_cast<double>(valid_taps(0, p.q() - 1, p.stride, p.s, p.pad, p.w));
    const double output = 4.0 * static_cast<double>(p.output_size()),
                 filter = 4.0 * static_cast<double>(p.filter_size()), input = 4.0 * static_cast<double>(p.input_size());
    // The input any tap reads: DRAM's compulsory input bytes.
    const double touched_pixels = static_cast<double>(touched(0, p.p() - 1, p.stride, p.r, p.pad, p.h)) *
                                  static_cast<double>(touched(0, p.q() - 1, p.stride, p.s, p.pad, p.w));
    const double input_read = 4.0 * static_cast<double>(n * c) * touched_pixels;
    const double dn = static_cast<double>(n), dc = static_cast<double>(c), dk = static_cast<double>(k);

    ConvCudaTraffic x;
    x.stores = output;
    x.dram = input_read + filter + output;
    x.working_set = input + filter + output;
    switch (t.algorithm) {
        case Algorithm::direct: {
            // Per pixel and group of k_per_thread filters: each valid tap's input once, and each
            // filter's weight for it. A block re-reads its filters' weights and the input under
            // its pixels, channel by channel.
            const I groups = ceil_div(k, t.k_per_thread), runs = ceil_div(pq, t.threads);
            x.loads = 4.0 * dn * dc * taps * static_cast<double>(groups + k);
            double footprints = 0;
            for (I a = 0; a < pq; a += t.threads) footprints += image_run_footprint(p, a, std::min(a + t.threads, pq));
            x.l2 = std::min(x.loads, 4.0 * dn *
                                         (static_cast<double>(runs) * dk * static_cast<double>(depth) +
                                          static_cast<double>(groups) * dc * footprints)) +
                   x.stores;
            x.block_working_set = 4.0 * (static_cast<double>(t.k_per_thread * rs) +
                                         image_run_footprint(p, 0, std::min<I>(t.threads, pq)));
            break;
        }
        case Algorithm::im2win: {
            // Transform: every valid (p, r) input row, the W real columns of it; the whole window
            // tensor stored. Convolution: per block, image and channel, its filter tile and one
            // strip per output row.
            const I wp = p.w + 2 * p.pad;
            const double win = 4.0 * dn * dc * static_cast<double>(p.p() * wp * p.r);
            const I ptiles = ceil_div(p.p(), t.tile_p), qtiles = ceil_div(p.q(), t.tile_q),
                    ktiles = ceil_div(k, t.tile_k);
            I strips = 0;  // floats of the strips of one output row, over its column tiles
            for (I q0 = 0; q0 < p.q(); q0 += t.tile_q)
                strips += ((std::min<I>(t.tile_q, p.q() - q0) - 1) * p.stride + p.s) * p.r;
            const double rows = static_cast<double>(valid_taps(0, p.p() - 1, p.stride, p.r, p.pad, p.h));
            x.loads = 4.0 * dn * dc * (rows * static_cast<double>(p.w)) +
                      4.0 * dn * dc *
                          (static_cast<double>(ptiles * qtiles) * dk * static_cast<double>(rs) +
                           static_cast<double>(ktiles * p.p() * strips));
            x.stores += win;
            x.l2 = x.loads + x.stores;
            x.workspace = win;
            // The window tensor is written back by the first kernel; the convolution reads the
            // columns its windows cover from L2 when every operand fits there with it (as a GPU's
            // L2, and cuda-emu's, keep a forward pass's data between its launches), else from DRAM.
            x.working_set += win;
            x.dram += win;
            if (x.working_set > static_cast<double>(emu::EmulationOptions{}.l2.bytes))
                x.dram += 4.0 * dn * dc * static_cast<double>(p.p() * ((p.q() - 1) * p.stride + p.s) * p.r);
            break;
        }
        case Algorithm::implicit_gemm: {
            // Every pixel tile reads all of A (K x C*R*S); every filter tile gathers the valid taps
            // of B. A block re-reads the input under its pixels, tap after tap of a channel.
            const I ntiles = ceil_div(n * pq, t.bn), mtiles = ceil_div(k, t.bm);
            const double a = 4.0 * static_cast<double>(ntiles) * dk * static_cast<double>(depth);
            x.loads = a + 4.0 * static_cast<double>(mtiles) * dn * dc * taps;
            x.l2 = std::min(x.loads, a + 4.0 * static_cast<double>(mtiles) * dc * tiled_footprint(p, t.bn)) + x.stores;
            x.block_working_set =
                4.0 * (run_footprint(p, 0, std::min<I>(t.bn, n * pq)) + static_cast<double>(t.bm * rs));
            break;
        }
        case Algorithm::im2col_gemm: {
            // im2col as the transform above; cuBLAS's GEMM per image with an assumed 128 x 128
            // output tile: A re-read per pixel tile, the column matrix per filter tile.
            const double col = 4.0 * dn * static_cast<double>(depth * pq);
            constexpr I tile = 128;
            x.loads =
                4.0 * dn * dc * taps + 4.0 * dn *
                                           (static_cast<double>(ceil_div(pq, tile)) * dk * static_cast<double>(depth) +
                                            static_cast<double>(ceil_div(k, tile) * depth * pq));
            x.stores += col;
            x.l2 = x.loads + x.stores;
            x.workspace = col;
            x.dram += 2 * col;
            x.working_set += col;
            break;
        }
        case Algorithm::cudnn:
            x.loads = input + filter;
            x.l2 = x.loads + x.stores;
            x.dram = x.l2;
            break;
        case Algorithm::implicit_gemm_tc:
        case Algorithm::im2win_tc: {
            // Layouts of tc_tiles.hpp: C padded, elements of e bytes. Every pixel tile reads the
            // whole filter, every filter tile B: implicit_gemm_tc the valid taps' chunks (the
            // padding's are zero-filled, read from nowhere), im2win_tc every window element
            // (padding included) after the transform has read each valid (output row, filter
            // row) input row's W columns and written the window tensor. cp.async.cg bypasses L1:
            // every load reaches L2.
            const double e = p.element_bytes(), cp = conv_tc_channels(static_cast<int>(c), static_cast<int>(e));
            const double pixels = static_cast<double>(n * pq), row = static_cast<double>(rs) * cp;  // depth, padded
            const double mtiles = static_cast<double>(ceil_div(k, t.bm)),
                         ntiles = static_cast<double>(ceil_div(n * pq, t.bn));
            const double a = ntiles * dk * row * e;
            x.stores = pixels * dk * e;
            x.dram = e * dn * cp * touched_pixels + dk * row * e + x.stores;
            x.working_set = e * (dn * cp * static_cast<double>(p.h * p.w) + dk * row) + x.stores;
            if (t.algorithm == Algorithm::implicit_gemm_tc) {
                x.loads = a + mtiles * dn * taps * cp * e;
            } else {
                const double win = e * static_cast<double>(conv_cuda::tc_window_elements(cuda_shape(p)));
                const double rows = static_cast<double>(valid_taps(0, p.p() - 1, p.stride, p.r, p.pad, p.h));
                x.loads = e * dn * rows * static_cast<double>(p.w) * cp + a + mtiles * pixels * row * e;
                x.stores += win;
                x.workspace = win;
                x.working_set += win;
                // Written once; read back from DRAM only when the pass's data outgrows L2 (as im2win).
                x.dram += x.working_set > static_cast<double>(emu::EmulationOptions{}.l2.bytes) ? 2 * win : win;
            }
            x.l2 = x.loads + x.stores;
            break;
        }
    }
    return x;
}

double conv_tc_tensor_flops(const ConvProblem& p, const Tuning& t) {
    // Every block runs its whole tile over every 64-byte stage of depth, padding included.
    const I e = static_cast<I>(p.element_bytes()), stage = conv_cuda::kConvTcStageBytes / e;
    const I depth = p.r * p.s * conv_tc_channels(static_cast<int>(p.c), static_cast<int>(e));
    return 2.0 * static_cast<double>(ceil_div(p.k, t.bm) * t.bm) *
           static_cast<double>(ceil_div(p.n * p.p() * p.q(), t.bn) * t.bn) *
           static_cast<double>(ceil_div(depth, stage) * stage);
}

std::vector<Counter> conv_cuda_model(const ConvProblem& p, const Tuning& t) {
    const ConvCudaTraffic x = conv_cuda_traffic(p, t);
    const std::vector<TrafficStream> streams = {
        {x.block_working_set, std::max(0.0, x.loads + x.stores - x.l2)},
        {x.working_set, std::max(0.0, x.l2 - x.dram)},
        {std::numeric_limits<double>::infinity(), x.dram},
    };
    std::vector<Counter> cs = byte_model(p.flops(), p.min_bytes(), x.workspace, kit::emu_gpu_hierarchy(), streams);
    if (t.algorithm == Algorithm::cudnn)
        std::erase_if(cs, [](const Counter& c) { return c.name == counters::kWorkspace; });
    if (conv_cuda::tensor_core(t.algorithm))
        cs.push_back({std::string(p.dtype == ConvDtype::bf16 ? counters::kFlopsBf16Tensor : counters::kFlopsTf32Tensor),
                      conv_tc_tensor_flops(p, t), "FLOP", CounterSource::model});
    return cs;
}

}  // namespace memwall

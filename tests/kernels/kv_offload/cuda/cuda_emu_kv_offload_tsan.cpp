// The CUDA kv_offload variants under ThreadSanitizer: warps whose partials overlapped, or a
// combine reading partials another thread still writes, would be data races between the emulated
// threads, which ThreadSanitizer reports with the line. ctest expects "all outputs correct" and no
// report. Built without memwall's libraries: their cuda-emu is the counting one, not
// ThreadSanitizer's; the reference is computed here.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "kernels/kv_offload/cuda/device_case.hpp"

int main() {
    using namespace memwall::kv_cuda;
    // 3-token pages (tokens straddle the partials), 2 heads of 32, 5 of 8 pages a step, 2 steps.
    Shape s;
    s.pages = 8;
    s.page_tokens = 3;
    s.heads = 2;
    s.head_dim = 32;
    s.selected = 5;
    s.steps = 2;
    const auto z = [](int v) { return static_cast<std::size_t>(v); };
    std::vector<float> kv(z(s.pages) * s.page_floats()), q(z(s.steps * s.heads * s.head_dim));
    for (std::size_t i = 0; i < kv.size(); ++i) kv[i] = static_cast<float>(i % 13) * 0.125f - 0.75f;
    for (std::size_t i = 0; i < q.size(); ++i) q[i] = static_cast<float>(i % 7) * 0.25f - 0.75f;
    const std::vector<std::int32_t> ids = {0, 2, 3, 5, 7, 1, 2, 4, 6, 7};

    const int d = s.head_dim, t = s.page_tokens;
    std::vector<double> want(q.size());
    for (int step = 0; step < s.steps; ++step)
        for (int h = 0; h < s.heads; ++h) {
            std::vector<double> scores, o(z(d), 0.0);
            double max = -INFINITY, sum = 0;
            for (int i = 0; i < s.selected; ++i)
                for (int j = 0; j < t; ++j) {
                    const float* k =
                        kv.data() + z(ids[z(step * s.selected + i)]) * s.page_floats() + z((h * t + j) * d);
                    double dot = 0;
                    for (int c = 0; c < d; ++c) dot += double{q[z((step * s.heads + h) * d + c)]} * double{k[c]};
                    scores.push_back(dot / std::sqrt(double(d)));
                    max = std::max(max, scores.back());
                }
            for (double& x : scores) sum += x = std::exp(x - max);
            for (int i = 0, n = 0; i < s.selected; ++i)
                for (int j = 0; j < t; ++j, ++n) {
                    const float* v =
                        kv.data() + z(ids[z(step * s.selected + i)]) * s.page_floats() + z(((s.heads + h) * t + j) * d);
                    for (int c = 0; c < d; ++c) o[z(c)] += scores[z(n)] / sum * double{v[c]};
                }
            for (int c = 0; c < d; ++c) want[z((step * s.heads + h) * d + c)] = o[z(c)];
        }

    Tuning tuning;
    tuning.splits = 3;
    tuning.warps = 2;
    tuning.misalign = 4;
    tuning.chunk_pages = 2;
    bool correct = true;
    for (Method m : {Method::resident, Method::zero_copy, Method::staged, Method::pipelined}) {
        auto device = cuda_emu::make_device_case(s, m, tuning, {kv.data(), q.data(), ids.data()});
        device->poison();
        device->run();
        std::vector<float> out(device->output_size());
        device->download(out.data());
        for (std::size_t i = 0; i < out.size(); ++i)
            if (!(std::abs(out[i] - want[i]) <= 1e-5 * (1 + std::abs(want[i])))) {
                std::printf("method %d: out[%zu] = %g, expected %g\n", static_cast<int>(m), i,
                            static_cast<double>(out[i]), want[i]);
                correct = false;
                break;
            }
    }
    if (correct) std::printf("all outputs correct\n");
    return correct ? 0 : 1;
}

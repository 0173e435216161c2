// attention/flash against attention/naive on the CPU: batch 1, 8 heads, seq 4096, head_dim
// 128, non-causal. Checks both against the float64 reference, then prints the median time,
// GFLOP/s, the speed-up and each as a share of the FP32 FMA ceiling measured here.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#include "bench/attention_bench.hpp"
#include "core/catalogue.hpp"
#include "core/isa.hpp"
#include "core/machine.hpp"
#include "kernels/attention/attention.hpp"
#include "kernels/attention/register.hpp"
#include "profiler/measure_ceilings.hpp"

namespace {

using namespace memwall;

using attention_bench::default_flash_tiles;
using attention_bench::median_seconds;

bool checked(const char* name, const AttentionWorkload& w, const std::vector<float>& o) {
    const Check c = w.check(o.data());
    std::printf("check %-6s %s: relative L2 error %.2e over %zu rows (tolerance %.0e)%s%s\n", name,
                c.ok ? "ok    " : "FAILED", c.error, w.reference_rows().size(), c.tolerance, c.ok ? "" : ": ",
                c.message.c_str());
    return c.ok;
}

}  // namespace

int main() {
    AttentionProblem p;
    p.batch = 1;
    p.heads = 8;
    p.seq_q = 4096;
    p.seq_k = 4096;
    p.head_dim = 128;
    p.causal = false;
    const FlashTiles tiles = default_flash_tiles();
    std::printf("host: %s; kernels %s\n", cpu_description().c_str(), isa_summary().c_str());
    std::printf("attention b=%lld h=%lld s_q=%lld s_k=%lld d=%lld non-causal fp32, flash Br=%d Bc=%d\n",
                static_cast<long long>(p.batch), static_cast<long long>(p.heads), static_cast<long long>(p.seq_q),
                static_cast<long long>(p.seq_k), static_cast<long long>(p.head_dim), tiles.br, tiles.bc);

    const AttentionWorkload w(p, 1);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> o_flash(p.q_size(), nan), o_naive(p.q_size(), nan);
    std::vector<float> packed(flash_workspace_floats(p, tiles)), scores(naive_workspace_floats(p));
    auto flash = [&] {
        attention_flash(p, tiles, w.q().data(), w.k().data(), w.v().data(), o_flash.data(), packed.data());
    };
    auto naive = [&] { attention_naive(p, w.q().data(), w.k().data(), w.v().data(), o_naive.data(), scores.data()); };
    flash();
    naive();
    const bool ok = checked("flash", w, o_flash) & checked("naive", w, o_naive);

    const double t_flash = median_seconds(7, flash);
    const double t_naive = median_seconds(3, naive);

    // Only the compute ceiling is used: a short bandwidth sweep keeps the measurement quick.
    CeilingOptions opt;
    opt.max_working_set = 4e6;
    const Ceilings ceilings = measure_cpu_ceilings(detect_memory_hierarchy(), opt).ceilings;
    const Ceiling* peak = ceilings.find("fp32_fma");
    const double flops = attention_flops(p);
    std::printf("FP32 FMA ceiling: %.1f GFLOP/s (%s)\n", peak->value / 1e9, peak->method.c_str());
    std::printf("%-6s %12s %10s %10s\n", "", "median s", "GFLOP/s", "% of peak");
    for (auto [name, t] : {std::pair{"flash", t_flash}, std::pair{"naive", t_naive}})
        std::printf("%-6s %12.4f %10.1f %9.1f%%\n", name, t, flops / t / 1e9, 100 * flops / t / peak->value);
    std::printf("flash / naive speed-up: %.2fx (targets: flash >= 55%% of the ceiling, >= 3x naive)\n",
                t_naive / t_flash);
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

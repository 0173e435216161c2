// The im2win paper's twelve layers on the CPU, side by side: direct, im2col_gemm, im2win and the
// peer onednn, each checked against the float64 reference first. Per layer: GFLOP/s, the share
// of the FP32 FMA ceiling measured here, and workspace MiB (per run, and the filter packed
// once); then geometric means and the ratios issue 14 sets targets on.
//   bench_conv_layers [batch] [seconds per variant and layer]   (defaults 1 and 0.3)
// The variants run in rounds, one run each per round, so a load that comes and goes on the host
// affects them alike; each time is the median of its rounds.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "core/isa.hpp"
#include "core/machine.hpp"
#include "kernels/conv/conv.hpp"
#include "kernels/conv/models.hpp"
#include "kernels/conv/register.hpp"
#include "profiler/measure_ceilings.hpp"

namespace {

using namespace memwall;

const std::vector<std::string> variants = {"direct", "im2col_gemm", "im2win", "onednn"};

struct Row {
    double seconds = 0, workspace = 0, packed = 0;
};

double counter(const std::vector<Counter>& cs, std::string_view name) {
    const Counter* c = find_counter(cs, name);
    return c ? c->value : 0.0;
}

double seconds_of(Instance& inst) {
    const auto t0 = std::chrono::steady_clock::now();
    inst.run();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    const long batch = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 1;
    const double budget = argc > 2 ? std::strtod(argv[2], nullptr) : 0.3;
    if (batch < 1 || budget <= 0) {
        std::fprintf(stderr, "usage: bench_conv_layers [batch >= 1] [seconds > 0]\n");
        return 2;
    }
    Catalogue cat;
    register_conv(cat);
    const Family& family = cat.family("conv");
    const MemoryHierarchy mh = detect_memory_hierarchy();
    CeilingOptions opt;
    opt.max_working_set = 4e6;  // only the compute ceiling is used
    const Ceilings ceilings = measure_cpu_ceilings(mh, opt).ceilings;
    const Ceiling* peak = ceilings.find("fp32_fma");
    std::printf("host: %s, %d threads; kernels %s (MEMWALL_ISA=avx2 runs the AVX2 path, oneDNN's and OpenBLAS's too)\n",
                cpu_model().c_str(), mh.cpus, isa_summary().c_str());
    std::printf("FP32 FMA ceiling: %.1f GFLOP/s (%s)\n", peak->value / 1e9, peak->method.c_str());
    std::printf("batch %ld; GFLOP/s (%% of the FMA ceiling) and workspace MiB per run + filter packed once\n\n", batch);
    std::printf("%-7s", "layer");
    for (const auto& v : variants) std::printf(" %28s", v.c_str());
    std::printf("\n");

    bool all_ok = true;
    std::map<std::string, std::vector<Row>> rows;
    std::vector<double> flops_of;
    for (const ConvLayer& layer : conv_layers()) {
        std::vector<std::unique_ptr<Instance>> instances;
        std::vector<Row> row(variants.size());
        std::unique_ptr<Workload> workload;
        double flops = 0;
        for (std::size_t i = 0; i < variants.size(); ++i) {
            const Variant& v = cat.variant("conv", variants[i], Backend::cpu);
            Space space = family.space(v);
            space.apply_override(std::string("layer=") + layer.name);
            space.apply_override("batch=" + std::to_string(batch));
            const Params point = space.points().front();
            if (!workload) {
                workload = family.make_workload(space.project(point, AxisRole::problem), 1);
                flops = ConvProblem::from(point).flops();
            }
            const auto model = v.model(point, mh);
            row[i].workspace = counter(model, counters::kWorkspace);
            row[i].packed = counter(model, conv_counters::kPackedFilter);
            auto inst = v.prepare(*workload, point);
            inst->poison();
            inst->run();
            const Check c = inst->check();
            if (!c.ok) {
                std::printf("%s %s: FAILED the check: %s\n", layer.name, variants[i].c_str(), c.message.c_str());
                all_ok = false;
            }
            if (variants[i] == "onednn" && rows.empty())
                std::printf("onednn on %s: %s\n", layer.name, inst->detail().c_str());
            instances.push_back(std::move(inst));
        }
        // Warm-up round, then rounds until each variant has had about `budget` seconds.
        std::vector<std::vector<double>> times(variants.size());
        double slowest = 0;
        for (auto& inst : instances) slowest = std::max(slowest, seconds_of(*inst));
        const int rounds = std::clamp(static_cast<int>(budget / slowest), 5, 200);
        for (int r = 0; r < rounds; ++r)
            for (std::size_t i = 0; i < instances.size(); ++i) times[i].push_back(seconds_of(*instances[i]));
        std::printf("%-7s", layer.name);
        for (std::size_t i = 0; i < variants.size(); ++i) {
            std::sort(times[i].begin(), times[i].end());
            row[i].seconds = times[i][times[i].size() / 2];
            const double gflops = flops / row[i].seconds / 1e9;
            char cell[64];
            std::snprintf(cell, sizeof cell, "%6.1f (%3.0f%%) %6.2f+%.2f", gflops, 100 * gflops * 1e9 / peak->value,
                          row[i].workspace / (1 << 20), row[i].packed / (1 << 20));
            std::printf(" %28s", cell);
            rows[variants[i]].push_back(row[i]);
        }
        std::printf("\n");
        flops_of.push_back(flops);
    }

    auto geomean = [&](const std::string& v, auto value) {
        double s = 0;
        for (std::size_t l = 0; l < flops_of.size(); ++l) s += std::log(value(rows[v][l], flops_of[l]));
        return std::exp(s / static_cast<double>(flops_of.size()));
    };
    auto gflops = [](const Row& r, double f) { return f / r.seconds / 1e9; };
    // Layers where a variant needs no workspace count as 1 byte, so the mean stays defined.
    auto workspace = [](const Row& r, double) { return std::max(1.0, r.workspace); };
    std::printf("%-7s", "geomean");
    std::map<std::string, double> g;
    for (const auto& v : variants) {
        g[v] = geomean(v, gflops);
        char cell[64];
        std::snprintf(cell, sizeof cell, "%6.1f (%3.0f%%) %6.2f", g[v], 100 * g[v] * 1e9 / peak->value,
                      geomean(v, workspace) / (1 << 20));
        std::printf(" %28s", cell);
    }
    std::printf("\n\n");
    const std::string best = std::max({std::string("direct"), std::string("im2col_gemm"), std::string("im2win")},
                                      [&](const std::string& a, const std::string& b) { return g[a] < g[b]; });
    std::printf("best memwall variant (%s) / onednn: %.2fx (target >= %.1f on %s)\n", best.c_str(),
                g[best] / g["onednn"], active_isa() == Isa::avx512 ? 1.0 : 0.9,
                std::string(isa_name(active_isa())).c_str());
    std::printf("im2win / im2col_gemm speed: %.2fx (target >= 1.0)\n", g["im2win"] / g["im2col_gemm"]);
    std::printf("im2win / im2col_gemm workspace (geomean): %.2fx (target <= 0.6)\n",
                geomean("im2win", workspace) / geomean("im2col_gemm", workspace));
    return all_ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

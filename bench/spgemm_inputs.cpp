// SpGEMM on the CPU, side by side (issue 15, acceptance 2): gustavson_dense, rowwise_hash, esc
// and the peers graphblas_hash and graphblas_gustavson on R-MAT scale 16 and 18 (edge factor 16;
// a = 0.45, b = c = 0.15, make_inputs says why) and Graph500's R-MAT at scale 16, Erdős–Rényi with
// R-MAT's nnz, and the 27-point Poisson stencil on 64^3, C = A*A, each checked
// against the float64 reference first. Per input and variant: GFLOP/s (2 x products), the
// symbolic/numeric split, and peak memory; then geometric means and rowwise_hash over the faster
// GraphBLAS method.
//   bench_spgemm [seconds per variant and input] [largest R-MAT scale] [sorted 0|1]   (0.5 18 0)
// Variants run in rounds, one run each per round, so a load that comes and goes on the host
// affects them alike; times are medians of the rounds. Peak memory is measured: the growth of the
// resident set's high-water mark (VmHWM) over preparing the case and one run, in a child process.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "core/machine.hpp"
#include "kernels/spgemm/register.hpp"
#include "kernels/spgemm/spgemm.hpp"

namespace {

using namespace memwall;

const std::vector<std::string> variants = {"gustavson_dense", "rowwise_hash", "esc", "graphblas_hash",
                                           "graphblas_gustavson"};

struct Input {
    std::string name;
    std::vector<std::string> axes;
};

double median(std::vector<double> xs) {
    std::sort(xs.begin(), xs.end());
    return xs[xs.size() / 2];
}

long status_kib(const char* field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field, 0) == 0) return std::strtol(line.c_str() + std::strlen(field), nullptr, 10);
    return -1;
}

// Peak memory of preparing a variant and one run, above what the process held before, measured
// in a fresh process (`bench_spgemm --peak INPUT VARIANT`): neither the high-water mark nor
// allocator caches of one variant leak into another's figure, and no OpenMP runtime is forked.
double peak_bytes(std::size_t input, const std::string& variant, long sorted) {
    const std::string cmd = "/proc/" + std::to_string(getpid()) + "/exe --peak " + std::to_string(input) + " " +
                            variant + " " + std::to_string(sorted);
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return -1;
    double bytes = -1;
    if (std::fscanf(p, "%lf", &bytes) != 1) bytes = -1;
    pclose(p);
    return bytes;
}

double counter(const std::vector<Counter>& cs, std::string_view name) {
    const Counter* c = find_counter(cs, name);
    return c ? c->value : 0.0;
}

}  // namespace

// The inputs; Erdős–Rényi gets the nnz of the R-MAT of its scale (an R-MAT drawn to count it).
// R-MAT uses a = 0.45, b = c = 0.15, a milder skew than Graph500's 0.57/0.19/0.19: with
// Graph500's, A*A at scale 18 would have about 1.3e9 entries (16 GB of C), more than this
// host's memory; Graph500's skew is the extra input at scale 16.
std::vector<Input> make_inputs(const Catalogue& cat, long max_scale) {
    const Family& family = cat.family("spgemm");
    std::vector<Input> inputs;
    for (long scale = 16; scale <= max_scale; scale += 2) {
        const std::string sc = "scale=" + std::to_string(scale);
        Input rm{"rmat" + std::to_string(scale),
                 {"matrix=rmat", sc, "degree=16", "rmat_a=0.45", "rmat_b=0.15", "rmat_c=0.15"}};
        Space s = family.space(cat.variant("spgemm", "esc", Backend::cpu));
        for (const auto& o : rm.axes) s.apply_override(o);
        const CsrMatrix a = SpgemmProblem::from(s.points().front()).a.make(1);
        char degree[64];
        std::snprintf(degree, sizeof degree, "degree=%.6f", static_cast<double>(a.nnz()) / static_cast<double>(a.rows));
        inputs.push_back(rm);
        inputs.push_back({"er" + std::to_string(scale), {"matrix=er", sc, degree}});
    }
    inputs.push_back({"rmat16_g500", {"matrix=rmat", "scale=16", "degree=16"}});
    inputs.push_back({"poisson27_64", {"matrix=poisson3d27", "nx=64"}});
    return inputs;
}

Params point_of(const Catalogue& cat, const Input& in, const std::string& variant, long sorted) {
    Space s = cat.family("spgemm").space(cat.variant("spgemm", variant, Backend::cpu));
    for (const auto& o : in.axes) s.apply_override(o);
    s.apply_override("sorted=" + std::to_string(sorted));
    return s.points().front();
}

// --peak INPUT VARIANT SORTED: prints the bytes the resident set's high-water mark grew by.
int peak_mode(const Catalogue& cat, char** argv) {
    const auto inputs = make_inputs(cat, 18);
    const Input& in = inputs.at(std::strtoul(argv[2], nullptr, 10));
    const std::string variant = argv[3];
    const long sorted = std::strtol(argv[4], nullptr, 10);
    const Params p = point_of(cat, in, variant, sorted);
    const Family& family = cat.family("spgemm");
    auto w = family.make_workload(
        family.space(cat.variant("spgemm", variant, Backend::cpu)).project(p, AxisRole::problem), 1);
    std::ofstream("/proc/self/clear_refs") << "5";  // resets VmHWM to the current RSS
    const long before = status_kib("VmHWM:");
    {
        auto inst = cat.variant("spgemm", variant, Backend::cpu).prepare(*w, p);
        inst->run();
    }
    std::printf("%.0f\n", 1024.0 * static_cast<double>(status_kib("VmHWM:") - before));
    return 0;
}

int main(int argc, char** argv) {
    Catalogue cat;
    register_spgemm(cat);
    if (argc == 5 && std::string(argv[1]) == "--peak") return peak_mode(cat, argv);
    const double budget = argc > 1 ? std::strtod(argv[1], nullptr) : 0.5;
    const long max_scale = argc > 2 ? std::strtol(argv[2], nullptr, 10) : 18;
    const long sorted = argc > 3 ? std::strtol(argv[3], nullptr, 10) : 0;
    if (budget <= 0 || max_scale < 16 || max_scale > 18 || (sorted != 0 && sorted != 1)) {
        std::fprintf(stderr, "usage: bench_spgemm [seconds > 0] [largest R-MAT scale 16..18] [sorted 0|1]\n");
        return 2;
    }
    const Family& family = cat.family("spgemm");
    const MemoryHierarchy mh = detect_memory_hierarchy();
    std::printf("host: %s, %d threads; C = A*A, fp64; rows %s\n", cpu_model().c_str(), mh.cpus,
                sorted ? "sorted"
                       : "unsorted where a variant may leave them so (esc sorts; GraphBLAS leaves them jumbled, its "
                         "lazy sort untimed)");
    std::printf(
        "per variant: GFLOP/s (2 x products / median time), symbolic+numeric ms, peak MiB above the inputs\n\n");

    const std::vector<Input> inputs = make_inputs(cat, max_scale);
    std::map<std::string, std::vector<double>> gflops;
    bool all_ok = true;
    for (std::size_t n = 0; n < inputs.size(); ++n) {
        const Input& in = inputs[n];
        std::vector<Params> points;
        for (const auto& name : variants) points.push_back(point_of(cat, in, name, sorted));
        std::vector<double> peaks;
        for (const auto& name : variants) peaks.push_back(peak_bytes(n, name, sorted));
        const auto workload = family.make_workload(
            family.space(cat.variant("spgemm", "esc", Backend::cpu)).project(points[0], AxisRole::problem), 1);
        const auto& w = dynamic_cast<const SpgemmWorkload&>(*workload);
        const ProductStats& st = w.stats();
        std::printf(
            "%s: %lld rows, nnz %lld (row min/mean/max %lld/%.1f/%lld), products %lld, nnz(C) %lld, "
            "compression %.2f\n",
            in.name.c_str(), static_cast<long long>(st.a.rows), static_cast<long long>(st.a.nnz),
            static_cast<long long>(st.a.row_min), st.a.row_mean, static_cast<long long>(st.a.row_max),
            static_cast<long long>(st.products), static_cast<long long>(st.nnz_c), st.compression());
        std::vector<std::unique_ptr<Instance>> instances;
        for (std::size_t i = 0; i < variants.size(); ++i) {
            auto inst = cat.variant("spgemm", variants[i], Backend::cpu).prepare(*workload, points[i]);
            inst->poison();
            inst->run();
            const Check c = inst->check();
            if (!c.ok) {
                std::printf("  %s: FAILED the check: %s\n", variants[i].c_str(), c.message.c_str());
                all_ok = false;
            }
            instances.push_back(std::move(inst));
        }
        std::vector<std::vector<double>> times(variants.size());
        double slowest = 0;
        for (auto& inst : instances) slowest = std::max(slowest, inst->run_timed());
        const int rounds = std::clamp(static_cast<int>(budget / slowest), 5, 100);
        for (int r = 0; r < rounds; ++r)
            for (std::size_t i = 0; i < instances.size(); ++i) times[i].push_back(instances[i]->run_timed());
        for (std::size_t i = 0; i < variants.size(); ++i) {
            const double t = median(times[i]);
            const double g = 2.0 * static_cast<double>(st.products) / t / 1e9;
            gflops[variants[i]].push_back(g);
            const auto phases = instances[i]->sampled_counters();
            char split[64] = "one phase";
            if (!phases.empty())
                std::snprintf(split, sizeof split, "%.2f+%.2f ms", 1e3 * counter(phases, "phase.symbolic.seconds"),
                              1e3 * counter(phases, "phase.numeric.seconds"));
            std::printf("  %-20s %7.3f GFLOP/s  %9.2f ms  (%s)  peak %8.1f MiB\n", variants[i].c_str(), g, 1e3 * t,
                        split, peaks[i] / (1 << 20));
        }
        std::printf("\n");
        std::fflush(stdout);
    }

    auto geomean = [](const std::vector<double>& xs) {
        double s = 0;
        for (double x : xs) s += std::log(x);
        return std::exp(s / static_cast<double>(xs.size()));
    };
    std::printf("geometric mean GFLOP/s over %zu inputs:\n", inputs.size());
    for (const auto& v : variants) std::printf("  %-20s %7.3f\n", v.c_str(), geomean(gflops[v]));
    const double gb = std::max(geomean(gflops["graphblas_hash"]), geomean(gflops["graphblas_gustavson"]));
    const double ratio = geomean(gflops["rowwise_hash"]) / gb;
    std::printf("rowwise_hash / faster GraphBLAS method: %.2fx (target >= 1.0: %s)\n", ratio,
                ratio >= 1.0 ? "met" : "MISSED");
    return all_ok ? 0 : 1;
}

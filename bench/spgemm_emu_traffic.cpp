// spgemm/rowwise_hash under cuda-emu on a small R-MAT (scale 9, degree 16) and a 27-point Poisson
// grid (nx 8) while the table factor changes: the global-memory traffic the emulator counts
// (exact loads, stores and atomics the threads request; its L2 model's DRAM estimate), the
// shared-memory traffic (exact loads, stores and atomics: the tables and the rows' bookkeeping),
// and the rows whose hash tables fell back to global memory, so the fallback's cost is counted
// exactly on both sides. Emulation times are this CPU's, never GPU times.
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>

#include "cuda_emu/traffic.hpp"
#include "kernels/spgemm/cuda/device_case.hpp"
#include "kernels/spgemm/spgemm.hpp"

namespace {

using namespace memwall;

struct Input {
    const char* name;
    MatrixSpec spec;
};

MatrixSpec rmat_spec() {
    MatrixSpec m;
    m.source = MatrixSource::rmat;
    m.scale = 9;
    m.degree = 16;
    m.a = 0.57;
    m.b = 0.19;
    m.c = 0.19;
    return m;
}

MatrixSpec poisson_spec() {
    MatrixSpec m;
    m.source = MatrixSource::poisson3d27;
    m.nx = 8;
    return m;
}

}  // namespace

int main() {
    std::printf(
        "spgemm/rowwise_hash on cuda-emu, C = A*A, default tuning but the table factor; emu figures are\n"
        "exact counts of the kernels' global and shared accesses (and an L2-model DRAM estimate), not GPU\n"
        "measurements\n\n");
    std::printf("%-12s %6s %8s %6s %8s %8s | %10s %10s %10s %10s | %10s %10s %10s  %-5s %5s\n", "matrix", "rows",
                "products", "factor", "fallback", "g.slots", "glob ld B", "glob st B", "glob at B", "DRAM B",
                "shr ld B", "shr st B", "shr at B", "check", "CPU s");
    for (const Input& in : {Input{"rmat-9", rmat_spec()}, Input{"poisson27-8", poisson_spec()}}) {
        SpgemmProblem p;
        p.a = in.spec;
        const SpgemmWorkload w(p, 1);
        for (const double factor : {1.0, 1.25, 1.5, 2.0, 4.0}) {
            spgemm_cuda::Tuning t;
            t.table_factor = factor;
            auto device = spgemm_cuda::cuda_emu::make_device_case(w.a(), w.b(), false, t);
            device->poison();
            emu::TrafficStats s;
            const std::clock_t c0 = std::clock();
            {
                emu::TrafficScope scope;
                device->run();
                s = scope.stats();
            }
            const double seconds = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
            const Check ch = w.check(device->download_csr());
            const std::string detail = device->detail();
            const auto slots_at = detail.find("rows, ");
            const std::string slots = slots_at == std::string::npos
                                          ? "?"
                                          : detail.substr(slots_at + 6, detail.find(" slots", slots_at) - slots_at - 6);
            const auto u = [](std::uint64_t x) { return static_cast<unsigned long long>(x); };
            std::printf(
                "%-12s %6lld %8lld %6.2f %8lld %8s | %10llu %10llu %10llu %10llu | %10llu %10llu %10llu  %-5s %5.2f\n",
                in.name, static_cast<long long>(w.a().rows), static_cast<long long>(w.stats().products), factor,
                static_cast<long long>(device->fallback_rows()), slots.c_str(), u(s.load.bytes), u(s.store.bytes),
                u(s.atomic.bytes), u(s.dram_read_bytes + s.dram_write_bytes), u(s.shared.load.bytes),
                u(s.shared.store.bytes), u(s.shared.atomic.bytes), ch.ok ? "ok" : "WRONG", seconds);
        }
    }
    std::printf(
        "\nfallback: rows whose entries would fill their bin's shared table to 80%% or more; each gets a\n"
        "global table (table_factor x its entries, a power of two) whose initialisation, atomicCAS probes,\n"
        "atomicAdd merges and read-back move from the shared columns to the global ones. g.slots: the global\n"
        "tables' slots. Shared traffic: the tables (initialised, probed, merged, read back or ranked) and\n"
        "each row's bookkeeping.\n");
    return 0;
}

// Global-memory traffic of the CUDA spgemm kernels under cuda-emu, exact, on a case small enough
// to count by hand: A = 1 x 3 (columns 0, 1, 2), B = 3 x 4 with rows {0, 1}, {1, 2}, {3}: 5
// products, C = 1 x 4 (4 entries). rowwise_hash puts the row in bin 0 (products <= 32; table of 8
// slots, groups of 8 threads), so every load, store and atomic below follows from the kernels'
// loops (hash.cuh, scan.cuh). And a row sent to a global table adds that table's traffic.
#include <gtest/gtest.h>

#include <cstdint>

#include "cuda_emu/traffic.hpp"
#include "kernels/spgemm/cuda/device_case.hpp"
#include "matrices.hpp"

namespace memwall {
namespace {

using namespace spgemm_test;
using U = std::uint64_t;

struct Traffic {
    emu::TrafficStats all;
    std::int64_t fallback_rows = 0;
};

Traffic run(double factor, const spgemm_cuda::Algorithm algorithm = spgemm_cuda::Algorithm::rowwise_hash) {
    const MtxFile fa("traffic-a", 1, 3, {{0, 0, 1.5}, {0, 1, -2.0}, {0, 2, 0.5}});
    const MtxFile fb("traffic-b", 3, 4, {{0, 0, 1.0}, {0, 1, 2.0}, {1, 1, 3.0}, {1, 2, -1.0}, {2, 3, 4.0}});
    const SpgemmWorkload w(problem(file_spec(fa.path()), SpgemmProblem::Op::ab, false, file_spec(fb.path())), 1);
    spgemm_cuda::Tuning t;
    t.algorithm = algorithm;
    t.table_factor = factor;
    auto device = spgemm_cuda::cuda_emu::make_device_case(w.a(), w.b(), false, t);
    device->poison();
    Traffic r;
    {
        emu::TrafficScope scope;
        device->run();
        r.all = scope.stats();
    }
    r.fallback_rows = device->fallback_rows();
    EXPECT_TRUE(w.check(device->download_csr()).ok);
    EXPECT_TRUE(r.all.counted);
    return r;
}

TEST(CudaEmuSpgemmTraffic, OneRowByHand) {
    const Traffic r = run(1.5);
    EXPECT_EQ(r.fallback_rows, 0);
    const U entries = 3, products = 5, nnz_c = 4, team = 8;
    // Binning: A's row pointers (8), columns (4 each), B's row pointers (8 per A entry).
    const U bin_loads = 8 + entries * (4 + 8);
    const U fill_loads = 4;  // the row's products
    // Symbolic: the row, A's row pointers; per A entry every lane of the team reads A's column
    // and B's two row pointers; B's column per product.
    const U symbolic_loads = 4 + 8 + team * entries * (4 + 8) + products * 4;
    const U scan_loads = 4;
    // Numeric: also C's first entry; A's value per lane; B's value per product.
    const U numeric_loads = 4 + 8 + 4 + team * entries * (4 + 8 + 8) + products * (4 + 8);
    EXPECT_EQ(r.all.load.bytes, bin_loads + fill_loads + symbolic_loads + scan_loads + numeric_loads);
    // products[0], the bin list, C's count, the scan's two row pointers, C's entries.
    EXPECT_EQ(r.all.store.bytes, U{4 + 4 + 4 + 8} + nnz_c * 12);
    // The bin's row count (unsigned long long) and the bin cursor (int).
    EXPECT_EQ(r.all.atomic.bytes, U{8 + 4});
}

TEST(CudaEmuSpgemmTraffic, AGlobalTableAddsItsOwnTraffic) {
    // Factor 1: the bin's table has 4 slots and the row's 4 entries fill it: a global table of 4.
    const Traffic shared = run(1.5), global = run(1.0);
    EXPECT_EQ(global.fallback_rows, 1);
    const U slots = 4, products = 5, nnz_c = 4, entries = 3;
    // Loads: in each phase the row's products and table offset (4 + 8) instead of nothing, a
    // block (8 warps, teams of 32 lanes: each warp takes A's entries) instead of a group of 8
    // lanes (team * entries * ... stays team-independent only for the lanes that have entries:
    // one A entry per warp here, every lane of those 3 warps reads it), and the numeric table
    // read back (keys, then values of the filled slots).
    const U team_reads_sym = 32 * entries * (4 + 8), team_reads_num = 32 * entries * (4 + 8 + 8);
    const U group_reads_sym = 8 * entries * (4 + 8), group_reads_num = 8 * entries * (4 + 8 + 8);
    EXPECT_EQ(global.all.load.bytes, shared.all.load.bytes + 2 * (4 + 8) + (team_reads_sym - group_reads_sym) +
                                         (team_reads_num - group_reads_num) + slots * 4 + nnz_c * 8);
    // Stores: the offset at binning, the tables' initialisation (keys; keys and values).
    EXPECT_EQ(global.all.store.bytes, shared.all.store.bytes + 8 + slots * 4 + slots * 12);
    // Atomics: the table slots counter (8); a CAS per product in each phase (4), an add per
    // product (8); the rest are shared memory and not counted.
    EXPECT_EQ(global.all.atomic.bytes, shared.all.atomic.bytes + 8 + 2 * products * 4 + products * 8);
}

}  // namespace
}  // namespace memwall

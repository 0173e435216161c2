// The host side of the CUDA spgemm kernels (hash.cuh, esc.cuh, common.cuh): the tuning they
// take, rowwise_hash's binning rule (shared by the kernels, the model and the tests), the rules a
// case must keep, and the device-case factories. device_cases.cu builds rowwise_hash and esc
// twice (cuda_emu, host compiler; cuda_gpu, nvcc); cusparse.cu only for GPUs. C++17 and free of
// CUDA headers, so that nvcc and the host side (register_cuda.cpp) both include it.
//
// On the device, row pointers and columns are int32 and values fp64: a problem whose nnz(A),
// nnz(B), products or rows do not fit an int32 is refused (std::invalid_argument).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "cuda_emu/options.hpp"
#include "kernels/kit/device_case.hpp"
#include "kernels/spgemm/csr.hpp"

#if defined(__CUDACC__)
#define MEMWALL_SPGEMM_HD __host__ __device__
#else
#define MEMWALL_SPGEMM_HD
#endif

namespace memwall::spgemm_cuda {

enum class Algorithm { rowwise_hash, esc, cusparse };

struct Tuning {
    Algorithm algorithm = Algorithm::rowwise_hash;
    int threads = 256;          // threads per block (a multiple of 32, at most 1024)
    double table_factor = 1.5;  // rowwise_hash: table slots per bound on a row's entries (>= 1)
    int threads_per_row = 8;    // rowwise_hash: threads of a small row's group (4, 8, 16 or 32)
    int bin_min = 32;           // rowwise_hash: bin j holds rows of <= bin_min * 2^j products
    int bins = 8;               // rowwise_hash: the last bin holds every larger row
};

// Without the opt-in above it: portable to every sm_80+ GPU (as conv's kernels).
inline constexpr std::size_t kMaxSharedBytes = 48 * 1024;
inline constexpr int kMaxThreads = 1024;
inline constexpr int kMaxBins = 16;
// rowwise_hash: a shared table's slots hold a key (int32) and, in the numeric phase, a value
// (fp64); the largest shared table is the power of two whose numeric slots fit 48 KiB beside a
// row's bookkeeping: 2048 slots (24 KiB of values, 8 KiB of keys).
inline constexpr int kNumericSlotBytes = 12;
inline constexpr std::int64_t kMaxSharedSlots = 2048;
inline constexpr int kRowMetaInts = 4;  // per row in a block: row, A's first and end entry, C's first
// esc: rows of up to this many products are sorted in shared memory (12 bytes each), longer
// ones in place in global memory.
inline constexpr int kEscSharedElements = 2048;

// rowwise_hash's rule, one function each so that the kernels, the model and the tests agree.
namespace binning {

MEMWALL_SPGEMM_HD inline std::int64_t pow2_ceil(std::int64_t x) {
    std::int64_t p = 1;
    while (p < x) p *= 2;
    return p;
}

// Slots of a table for at most `entries` distinct columns: the power of two at or above
// table_factor * entries.
MEMWALL_SPGEMM_HD inline std::int64_t table_slots(std::int64_t entries, double factor) {
    const double want = factor * static_cast<double>(entries < 1 ? 1 : entries);
    auto n = static_cast<std::int64_t>(want);
    if (static_cast<double>(n) < want) ++n;
    return pow2_ceil(n);
}

// The bin of a row of `products` (> 0): the first j with products <= bin_min * 2^j, else the last.
MEMWALL_SPGEMM_HD inline int bin_of(std::int64_t products, int bin_min, int bins) {
    std::int64_t bound = bin_min;
    for (int j = 0; j + 1 < bins; ++j, bound *= 2)
        if (products <= bound) return j;
    return bins - 1;
}

// A bin's shared table: sized for its bound on a row's entries (products, never more than B's
// columns; the last bin's bound is B's columns), at most kMaxSharedSlots.
MEMWALL_SPGEMM_HD inline std::int64_t bin_slots(int bin, std::int64_t cols, double factor, int bin_min, int bins) {
    std::int64_t bound = cols;
    if (bin + 1 < bins) {
        const std::int64_t products = static_cast<std::int64_t>(bin_min) << bin;
        bound = products < cols ? products : cols;
    }
    const std::int64_t s = table_slots(bound, factor);
    return s < kMaxSharedSlots ? s : kMaxSharedSlots;
}

// A row whose entries (at most min(products, cols)) would fill its bin's shared table to 80% or
// more goes to a global-memory table of table_slots(entries) slots instead.
MEMWALL_SPGEMM_HD inline bool falls_back(std::int64_t products, std::int64_t cols, double factor, int bin_min,
                                         int bins) {
    const std::int64_t entries = products < cols ? products : cols;
    return 5 * entries >= 4 * bin_slots(bin_of(products, bin_min, bins), cols, factor, bin_min, bins);
}

// Rows a block of `threads` holds in a bin: groups of threads_per_row when the block's tables
// and bookkeeping fit shared memory that way (small rows), else one row per block (large rows).
inline int rows_per_block(int bin, std::int64_t cols, const Tuning& t) {
    const int group = t.threads / t.threads_per_row;
    const std::int64_t slots = bin_slots(bin, cols, t.table_factor, t.bin_min, t.bins);
    const bool fits = static_cast<std::size_t>(group) *
                          (static_cast<std::size_t>(slots) * kNumericSlotBytes + 4 * (kRowMetaInts + 1)) <=
                      kMaxSharedBytes;
    return bin + 1 < t.bins && fits ? group : 1;
}

}  // namespace binning

// Throws std::invalid_argument naming the first rule the tuning breaks.
inline void validate(const Tuning& t) {
    auto require = [](bool ok, const std::string& rule) {
        if (!ok) throw std::invalid_argument("cuda spgemm: " + rule);
    };
    require(t.threads >= 32 && t.threads <= kMaxThreads && t.threads % 32 == 0,
            "threads must be a multiple of 32 up to 1024");
    if (t.algorithm != Algorithm::rowwise_hash) return;
    require(t.table_factor >= 1 && t.table_factor <= 16, "table_factor must be 1 to 16");
    require(t.threads_per_row == 4 || t.threads_per_row == 8 || t.threads_per_row == 16 || t.threads_per_row == 32,
            "threads_per_row must be 4, 8, 16 or 32");
    require(t.bin_min >= 1 && t.bin_min <= (1 << 20), "bin_min must be 1 to 2^20");
    require(t.bins >= 1 && t.bins <= kMaxBins, "bins must be 1 to 16");
}

// Throws std::invalid_argument when a dimension, nnz(A), nnz(B) or the products of A*B do not
// fit the device's int32 row pointers and columns, or A's columns are not B's rows.
inline void validate_inputs(const CsrMatrix& a, const CsrMatrix& b) {
    constexpr std::int64_t limit = 2147483647;
    if (a.cols != b.rows) throw std::invalid_argument("cuda spgemm: A's columns are not B's rows");
    if (a.rows > limit || a.cols > limit || b.cols > limit || a.nnz() > limit || b.nnz() > limit)
        throw std::invalid_argument(
            "cuda spgemm: a dimension or nnz of A or B does not fit int32 (the device's "
            "row pointers and columns)");
    std::int64_t products = 0;
    for (std::int64_t i = 0; i < a.rows; ++i)
        for (std::int64_t e = a.row_ptr[static_cast<std::size_t>(i)]; e < a.row_ptr[static_cast<std::size_t>(i) + 1];
             ++e) {
            const auto k = static_cast<std::size_t>(a.col[static_cast<std::size_t>(e)]);
            products += b.row_ptr[k + 1] - b.row_ptr[k];
        }
    if (products > limit)
        throw std::invalid_argument("cuda spgemm: " + std::to_string(products) +
                                    " products do not fit int32 (the device's offsets)");
}

// One case on a device. Its output is C in CSR, not floats: output_size() is 0 and the check
// downloads C with download_csr() (kit::CudaKernel::check_case).
class SpgemmCase : public kit::DeviceCase {
  public:
    std::size_t output_size() const override { return 0; }
    void download(float*) const override {
        throw std::logic_error("spgemm's output is a CSR matrix: download it with download_csr()");
    }
    // C of the last run(), row pointers widened to int64 (a poisoned row pointer reads -1).
    virtual CsrMatrix download_csr() const = 0;
    // rowwise_hash: rows whose tables were in global memory in the last run(); 0 otherwise.
    virtual std::int64_t fallback_rows() const { return 0; }
};

// The inputs stay the caller's (the workload's) for the case's life; `b` may be `a` (A*A: one
// upload). `sorted`: C's rows sorted by column (esc and cusparse sort anyway).
namespace cuda_emu {
// rowwise_hash and esc on cuda-emu's arena; `options` sets block order, barrier rule and the
// cache models. Throws std::invalid_argument for cusparse and broken rules.
std::unique_ptr<SpgemmCase> make_device_case(const CsrMatrix& a, const CsrMatrix& b, bool sorted, const Tuning& t,
                                             const emu::EmulationOptions& options = {});
}  // namespace cuda_emu

namespace cuda_gpu {
// rowwise_hash and esc on the current CUDA device (nvcc build).
std::unique_ptr<SpgemmCase> make_device_case(const CsrMatrix& a, const CsrMatrix& b, bool sorted, const Tuning& t);
// cusparseSpGEMM (work estimation, compute, copy) with CUSPARSE_SPGEMM_DEFAULT (cusparse.cu).
std::unique_ptr<SpgemmCase> make_cusparse_case(const CsrMatrix& a, const CsrMatrix& b);
}  // namespace cuda_gpu

}  // namespace memwall::spgemm_cuda

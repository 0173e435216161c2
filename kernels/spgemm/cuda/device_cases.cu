// Launchers of the emulatable CUDA spgemm kernels (rowwise_hash, esc) and the device cases
// behind them; compiled by nvcc for GPUs (cuda_gpu) and by the host compiler for cuda-emu
// (cuda_emu), see memwall_add_family. Every step of a product runs on the device; the host reads
// back only what sizes the next launches (rows per bin and global table slots, nnz(C), esc's
// products), as a GPU library does, and those copies are inside run(), so timed.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

// Standard headers (through device_case.hpp) before cuda-emu's macros.
#include "kernels/spgemm/cuda/device_case.hpp"

#include "kernels/spgemm/cuda/buffers.cuh"
#include "kernels/spgemm/cuda/esc.cuh"
#include "kernels/spgemm/cuda/hash.cuh"
#include "kernels/spgemm/cuda/scan.cuh"

namespace memwall::spgemm_cuda::MEMWALL_CUDA_NS {

namespace {

// Blocks of a grid-stride loop over n items of `per_block` each: all of them, at most 2^20.
unsigned grid_for(long long n, long long per_block) {
    return static_cast<unsigned>(std::max<long long>(1, std::min<long long>((n + per_block - 1) / per_block, 1 << 20)));
}

class Launcher {
  public:
    Launcher(const emu::EmulationOptions& options) : options_(options) {}
    cuda::LaunchConfig config(unsigned grid, int threads, std::size_t shared = 0) const {
        cuda::LaunchConfig c;
        c.grid = dim3(grid);
        c.block = dim3(static_cast<unsigned>(threads));
        c.dynamic_shared = shared;
        c.emu = options_;
        return c;
    }

  private:
    emu::EmulationOptions options_;
};

class HashCase final : public SpgemmBuffers {
  public:
    HashCase(const CsrMatrix& a, const CsrMatrix& b, bool sorted, const Tuning& t, const emu::EmulationOptions& o)
        : SpgemmBuffers(a, b),
          t_(t),
          sorted_(sorted),
          launch_(o),
          products_(static_cast<std::size_t>(a.rows)),
          counts_(static_cast<std::size_t>(a.rows)),
          bin_rows_(static_cast<std::size_t>(a.rows)),
          table_off_(static_cast<std::size_t>(a.rows)),
          cursor_(static_cast<std::size_t>(t.bins) + 1),
          meta_(static_cast<std::size_t>(t.bins) + 2),
          rule_{cols_, t.table_factor, t.bin_min, t.bins} {}

    void run() override {
        const int bins = t_.bins;
        check_cuda(cudaMemset(meta_.get(), 0, meta_.bytes()), "cudaMemset");
        cuda::launch(launch_.config(grid_for(rows_, t_.threads), t_.threads), hash_bin_kernel, a_.view(),
                     b_.row_ptr.get(), rows_, rule_, products_.get(), counts_.get(), meta_.get(), table_off_.get());
        std::vector<unsigned long long> meta(meta_.size());
        copy_to_host(meta.data(), meta_.get(), meta.size());
        // Bin j's rows start at first[j]; the fallback rows are bin `bins`.
        first_.assign(static_cast<std::size_t>(bins) + 2, 0);
        for (int j = 0; j <= bins; ++j)
            first_[static_cast<std::size_t>(j) + 1] =
                first_[static_cast<std::size_t>(j)] + static_cast<int>(meta[static_cast<std::size_t>(j)]);
        global_slots_ = static_cast<long long>(meta[static_cast<std::size_t>(bins) + 1]);
        check_cuda(cudaMemcpy(cursor_.get(), first_.data(), cursor_.bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
        global_keys_.ensure(static_cast<std::size_t>(global_slots_));
        global_vals_.ensure(static_cast<std::size_t>(global_slots_));
        cuda::launch(launch_.config(grid_for(rows_, t_.threads), t_.threads), hash_fill_bins_kernel, products_.get(),
                     rows_, rule_, cursor_.get(), bin_rows_.get());

        for (int j = 0; j <= bins; ++j) {
            const HashLaunch l = bin_launch(j);
            if (l.count == 0) continue;
            cuda::launch(launch_.config(blocks(l.count, l.rows_per_block), t_.threads, shared_bytes(l, 4)),
                         hash_symbolic_kernel, a_.view(), b_.view(), rule_, l, products_.get(), table_off_.get(),
                         global_keys_.get(), counts_.get());
        }
        cuda::launch(launch_.config(1, kMaxThreads), exclusive_scan_kernel, counts_.get(), rows_, c_row_ptr_.get());
        ensure_c(read_int(c_row_ptr_.get() + rows_));
        for (int j = 0; j <= bins; ++j) {
            const HashLaunch l = bin_launch(j);
            if (l.count == 0) continue;
            cuda::launch(
                launch_.config(blocks(l.count, l.rows_per_block), t_.threads, shared_bytes(l, kNumericSlotBytes)),
                hash_numeric_kernel, a_.view(), b_.view(), rule_, l, products_.get(), table_off_.get(),
                global_keys_.get(), global_vals_.get(), c_row_ptr_.get(), c_col_.get(), c_val_.get(), sorted_);
        }
    }

    std::int64_t fallback_rows() const override { return bin_rows(t_.bins); }

    std::string detail() const override {
        std::string s = "rows per bin (products <= " + std::to_string(t_.bin_min) + " * 2^j):";
        for (int j = 0; j < t_.bins; ++j) {
            const HashLaunch l = bin_launch(j);
            s += " " + std::to_string(l.count);
            if (l.count > 0)
                s += " (" + std::to_string(l.slots) + " slots" + (l.rows_per_block > 1 ? ", grouped" : "") + ")";
        }
        return s + "; fallback to global tables: " + std::to_string(fallback_rows()) + " rows, " +
               std::to_string(global_slots_) + " slots";
    }

  private:
    int bin_rows(int j) const {
        return first_.empty() ? 0 : first_[static_cast<std::size_t>(j) + 1] - first_[static_cast<std::size_t>(j)];
    }

    HashLaunch bin_launch(int j) const {
        HashLaunch l;
        l.count = bin_rows(j);
        l.rows = bin_rows_.get() + (first_.empty() ? 0 : first_[static_cast<std::size_t>(j)]);
        if (j == t_.bins) {  // global tables, a block per row
            l.slots = 0;
            l.rows_per_block = 1;
            l.team = kWarpSize;
            return l;
        }
        l.slots = static_cast<int>(binning::bin_slots(j, cols_, t_.table_factor, t_.bin_min, t_.bins));
        l.rows_per_block = binning::rows_per_block(j, cols_, t_);
        l.team = l.rows_per_block > 1 ? t_.threads_per_row : kWarpSize;
        return l;
    }

    // Shared memory of a launch: its tables (slot_bytes each) and each row's bookkeeping.
    static std::size_t shared_bytes(const HashLaunch& l, int slot_bytes) {
        const auto rows = static_cast<std::size_t>(l.rows_per_block);
        return rows * (static_cast<std::size_t>(l.slots) * static_cast<std::size_t>(slot_bytes) + 4 * kMetaInts);
    }

    Tuning t_;
    bool sorted_;
    Launcher launch_;
    DeviceArray<int> products_, counts_, bin_rows_;
    DeviceArray<long long> table_off_;
    DeviceArray<int> cursor_;
    DeviceArray<unsigned long long> meta_;
    Growable<int> global_keys_;
    Growable<double> global_vals_;
    HashRule rule_;
    std::vector<int> first_;
    long long global_slots_ = 0;
};

class EscCase final : public SpgemmBuffers {
  public:
    EscCase(const CsrMatrix& a, const CsrMatrix& b, const Tuning& t, const emu::EmulationOptions& o)
        : SpgemmBuffers(a, b),
          t_(t),
          launch_(o),
          products_(static_cast<std::size_t>(a.rows)),
          offsets_(static_cast<std::size_t>(a.rows) + 1),
          counts_(static_cast<std::size_t>(a.rows)) {}

    void run() override {
        const int warps = t_.threads / kWarpSize;
        cuda::launch(launch_.config(grid_for(rows_, t_.threads), t_.threads), row_products_kernel, a_.view(),
                     b_.row_ptr.get(), rows_, products_.get());
        cuda::launch(launch_.config(1, kMaxThreads), exclusive_scan_kernel, products_.get(), rows_, offsets_.get());
        const int products = read_int(offsets_.get() + rows_);
        for (Growable<int>* k : {&keys_, &out_keys_}) k->ensure(static_cast<std::size_t>(products));
        for (Growable<double>* v : {&vals_, &out_vals_}) v->ensure(static_cast<std::size_t>(products));
        cuda::launch(launch_.config(grid_for(rows_, warps), t_.threads), esc_expand_kernel, a_.view(), b_.view(), rows_,
                     offsets_.get(), keys_.get(), vals_.get());
        cuda::launch(
            launch_.config(grid_for(rows_, 1), t_.threads, kEscSharedElements * (sizeof(double) + sizeof(int))),
            esc_sort_compress_kernel, rows_, offsets_.get(), keys_.get(), vals_.get(), out_keys_.get(), out_vals_.get(),
            counts_.get());
        cuda::launch(launch_.config(1, kMaxThreads), exclusive_scan_kernel, counts_.get(), rows_, c_row_ptr_.get());
        ensure_c(read_int(c_row_ptr_.get() + rows_));
        cuda::launch(launch_.config(grid_for(rows_, warps), t_.threads), esc_copy_kernel, rows_, offsets_.get(),
                     out_keys_.get(), out_vals_.get(), c_row_ptr_.get(), c_col_.get(), c_val_.get());
    }

  private:
    Tuning t_;
    Launcher launch_;
    DeviceArray<int> products_, offsets_, counts_;
    Growable<int> keys_, out_keys_;
    Growable<double> vals_, out_vals_;
};

std::unique_ptr<SpgemmCase> make_case(const CsrMatrix& a, const CsrMatrix& b, bool sorted, const Tuning& t,
                                      const emu::EmulationOptions& options) {
    validate(t);
    validate_inputs(a, b);
    switch (t.algorithm) {
        case Algorithm::rowwise_hash: return std::make_unique<HashCase>(a, b, sorted, t, options);
        case Algorithm::esc: return std::make_unique<EscCase>(a, b, t, options);
        case Algorithm::cusparse: break;
    }
    throw std::invalid_argument("cuda spgemm: cusparse calls a GPU library (make_cusparse_case)");
}

}  // namespace

#if defined(__CUDACC__)
std::unique_ptr<SpgemmCase> make_device_case(const CsrMatrix& a, const CsrMatrix& b, bool sorted, const Tuning& t) {
    return make_case(a, b, sorted, t, emu::EmulationOptions{});
}
#else
std::unique_ptr<SpgemmCase> make_device_case(const CsrMatrix& a, const CsrMatrix& b, bool sorted, const Tuning& t,
                                             const emu::EmulationOptions& options) {
    return make_case(a, b, sorted, t, options);
}
#endif

}  // namespace memwall::spgemm_cuda::MEMWALL_CUDA_NS

// A prepared kv_offload CPU case: the output (poisoned with NaN before the checked run), the
// kernel, and the page-cache handling: a kernel that reads the file runs cold unless the problem
// says warm, its file's pages evicted before the checked run and before every timed run (outside
// the timing), and the case's detail says which, with what mincore found after eviction. Reads
// that bypass the page cache (O_DIRECT) need no eviction, and the detail says so.
#pragma once

#include <algorithm>
#include <limits>
#include <memory>
#include <string>

#include "kernels/kit/phase_times.hpp"
#include "kernels/kv_offload/cpu_kernels.hpp"

namespace memwall {

class KvInstance final : public Instance {
  public:
    KvInstance(const KvWorkload& w, std::unique_ptr<kv_cpu::Kernel> kernel)
        : w_(w),
          kernel_(std::move(kernel)),
          out_(w.problem().out_floats(), kit::PlacedAllocator<float>(kv_slot::kOut)) {
        cold_ = kernel_->reads_file() && !kernel_->bypasses_page_cache() && !w.problem().warm;
        if (cold_) evict();
    }

    void poison() override { std::fill(out_.begin(), out_.end(), std::numeric_limits<float>::quiet_NaN()); }
    void run() override {
        phases_.start();
        kernel_->run(out_.data(), phases_);
    }
    double run_timed() override {
        if (cold_) evict();
        return Instance::run_timed();
    }
    Check check() const override { return w_.check(out_.data()); }
    std::string detail() const override {
        std::string d;
        if (!kernel_->reads_file())
            d = "KV in DRAM";
        else if (kernel_->bypasses_page_cache())
            d = "O_DIRECT: every read goes to the file's device, past the page cache";
        else if (!cold_)
            d = "warm: the file's pages stay in the page cache between runs (warm=1)";
        else if (most_resident_ == 0)
            d = "cold: the file's pages evicted before each run (mincore: none resident)";
        else
            d = "not cold: evicted before each run, but mincore found " + std::to_string(most_resident_) + " of " +
                std::to_string(w_.file().os_pages()) + " pages still resident";
        if (const std::string n = kernel_->notes(); !n.empty()) d += "; " + n;
        if (const std::string n = w_.file().notes(); !n.empty()) d += "; " + n;
        return d;
    }
    std::vector<Counter> sampled_counters() const override { return phases_.counters(); }
    std::vector<Counter> measured_counters() const override { return {reuse_counter(w_.selections())}; }

    const kv_cpu::Tally& tally() const { return kernel_->tally(); }
    // The most OS pages of the file that stayed resident after an eviction so far.
    std::uint64_t most_resident() const { return most_resident_; }
    // Drops the file's pages from the page cache and from the kernel's mappings (which pin them
    // against another instance's eviction: a bench that interleaves instances on one file calls it
    // on the others before each run). What stays resident is not recorded: others may hold it.
    void release() {
        if (kernel_->reads_file()) (void)kernel_->evict();
    }

  private:
    void evict() { most_resident_ = std::max(most_resident_, kernel_->evict()); }

    const KvWorkload& w_;
    std::unique_ptr<kv_cpu::Kernel> kernel_;
    kit::PlacedBuffer out_;
    kit::PhaseTimes phases_;
    bool cold_ = false;
    std::uint64_t most_resident_ = 0;
};

}  // namespace memwall

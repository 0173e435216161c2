// The kv_offload CPU variants' kernels: each run does every step, bringing the step's pages in
// reach (phase io) and attending over them (phase attention), and counts what it asked the tier
// for.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/kit/phase_times.hpp"
#include "kernels/kv_offload/kv_offload.hpp"

namespace memwall {
class UringReader;
}

namespace memwall::kv_cpu {

// What a run asked of the tier: bytes, and requests (preads, io_uring reads, or OS pages touched
// through a map); and the pages a DRAM cache served instead.
struct Tally {
    std::uint64_t bytes = 0, requests = 0, hits = 0;
};

class Kernel {
  public:
    virtual ~Kernel() = default;
    // All steps into `out` (out_floats()).
    virtual void run(float* out, kit::PhaseTimes& phases) = 0;
    // Whether the kernel reads the scratch file (through the page cache).
    virtual bool reads_file() const = 0;
    // Whether its reads bypass the page cache (O_DIRECT), so eviction changes nothing.
    virtual bool bypasses_page_cache() const { return false; }
    // How it reads, for the case's detail (queue depth, O_DIRECT or why not); empty: nothing.
    virtual std::string notes() const { return {}; }
    // Drops the file's pages from the page cache, and from this kernel's mappings; returns the
    // file's OS pages still resident. Only for kernels that read the file.
    virtual std::uint64_t evict() = 0;
    const Tally& tally() const { return tally_; }

  protected:
    Tally tally_;
};

// One step's attention fed page by page, on the caller's thread, as pages arrive from the tier:
// each head's running softmax folds the page's tokens in (any page order gives the same result up
// to rounding). Lets a reader attend while its other reads are in flight.
class StepAttention {
  public:
    explicit StepAttention(const KvWorkload& w);
    void begin(std::int64_t step);
    void add(const float* page);
    // Every head's output (heads x head_dim floats at `out`).
    void finish(float* out) const;

  private:
    const KvWorkload& w_;
    std::int64_t step_ = 0;
    std::vector<float> max_, sum_, acc_;
};

// All pages in DRAM (the workload's copy): attention straight over the selected pages.
std::unique_ptr<Kernel> make_resident(const KvWorkload& w);
// One pread per selected page into a DRAM staging buffer, then attention over the buffer.
std::unique_ptr<Kernel> make_pread(const KvWorkload& w);
// The file mapped read-only; the selected pages touched once per OS page (faulting them in),
// then attention over the mapping.
std::unique_ptr<Kernel> make_mmap(const KvWorkload& w);
// The selected pages read through io_uring, `depth` in flight, O_DIRECT where possible.
std::unique_ptr<Kernel> make_uring(const KvWorkload& w, unsigned depth);
// An LRU of `capacity` pages (at least a step's selection) in front of the file; the misses read
// as uring reads them.
std::unique_ptr<Kernel> make_cached(const KvWorkload& w, unsigned depth, std::int64_t capacity);

// Whether the uring readers use O_DIRECT on `w`: the file system takes it and pages are whole
// 4 KiB blocks.
bool direct_reads(const KvWorkload& w);
// What a uring reader does: queue depth, O_DIRECT or why not, registered buffers or not.
std::string uring_notes(const KvWorkload& w, const UringReader& r);

}  // namespace memwall::kv_cpu

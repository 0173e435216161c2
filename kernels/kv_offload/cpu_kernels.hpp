// The kv_offload CPU variants' kernels: each run does every step, bringing the step's pages in
// reach (phase io) and attending over them (phase attention), and counts what it asked the tier
// for.
#pragma once

#include <cstdint>
#include <memory>

#include "kernels/kit/phase_times.hpp"
#include "kernels/kv_offload/kv_offload.hpp"

namespace memwall::kv_cpu {

// What a run asked of the tier: bytes, and requests (preads, or OS pages touched through a map).
struct Tally {
    std::uint64_t bytes = 0, requests = 0;
};

class Kernel {
public:
    virtual ~Kernel() = default;
    // All steps into `out` (out_floats()).
    virtual void run(float* out, kit::PhaseTimes& phases) = 0;
    // Whether the kernel reads the scratch file (through the page cache).
    virtual bool reads_file() const = 0;
    // Drops the file's pages from the page cache, and from this kernel's mappings; returns the
    // file's OS pages still resident. Only for kernels that read the file.
    virtual std::uint64_t evict() = 0;
    const Tally& tally() const { return tally_; }

protected:
    Tally tally_;
};

// All pages in DRAM (the workload's copy): attention straight over the selected pages.
std::unique_ptr<Kernel> make_resident(const KvWorkload& w);
// One pread per selected page into a DRAM staging buffer, then attention over the buffer.
std::unique_ptr<Kernel> make_pread(const KvWorkload& w);
// The file mapped read-only; the selected pages touched once per OS page (faulting them in),
// then attention over the mapping.
std::unique_ptr<Kernel> make_mmap(const KvWorkload& w);

}  // namespace memwall::kv_cpu

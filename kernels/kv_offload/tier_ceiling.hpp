// The slow tier's own bandwidth, measured as fio measures a device (ioengine=io_uring, direct=1,
// rw=randread / read): reads of one block size over a scratch file, a fixed number in flight,
// for a fixed time. The best rate over the queue depths at each block size is the ceiling a
// kv_offload case with pages of that size is placed against on the roofline.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/params.hpp"
#include "metrics/ceilings.hpp"

namespace memwall {

// Block sizes the ceilings are measured at: 4 KiB to 1 MiB, powers of two.
std::vector<std::size_t> tier_block_sizes();

// The roofline level of a case reading pages of `page_bytes` at random: "tier.rand.64KiB", the
// smallest measured block size that holds a page (1 MiB for larger pages), so the ceiling it meets
// is never below what its pages could reach.
std::string tier_level(std::uint64_t page_bytes);
inline constexpr const char* tier_sequential_level = "tier.seq.1MiB";

struct TierOptions {
    std::uint64_t file_bytes = std::uint64_t{256} << 20;
    std::vector<std::size_t> blocks = tier_block_sizes();
    std::vector<unsigned> depths{1, 4, 16, 64};
    double seconds_per_point = 0.05;
    // Sweeps over every point, each keeping its best rate: a shared disk's rate wanders, and a
    // ceiling is what the tier can reach.
    int passes = 2;
};

struct TierPoint {
    std::size_t block = 0;
    unsigned depth = 0;
    bool random = true;
    double bytes_per_second = 0;
};

struct TierMeasurement {
    std::vector<TierPoint> points;  // every (block, depth) random, then sequential 1 MiB reads
    std::vector<Ceiling> ceilings;  // tier.rand.<block> (best depth) and tier.seq.1MiB
};

class ScratchFile;

// Reads of `block` bytes from `file`, `depth` in flight, at random block-aligned offsets (or in
// order, wrapping), for about `seconds` after one untimed batch: the rate over the timed batches.
// O_DIRECT where the file allows it.
double tier_read_rate(const ScratchFile& file, std::size_t block, unsigned depth, bool random, double seconds);

// Writes a scratch file of opt.file_bytes in `dir` (removed afterwards) and measures it. Reads
// are O_DIRECT where the file system accepts it; otherwise buffered, and the ceilings' method
// says so (the page cache then serves them: no slower tier). Throws EnvironmentError when the
// directory or io_uring refuses.
TierMeasurement measure_tier(const std::filesystem::path& dir, const TierOptions& opt = {});

// Whether `have` holds tier ceilings measured on `dir` (the method names it): a run that reuses
// another's ceilings on the same directory keeps them.
bool has_tier_ceilings(const Ceilings& have, const std::filesystem::path& dir);

// The family hook (Family::ceilings): the tier's ceilings for the scratch directory, unless
// `have` holds them; a directory that refuses is reported on stderr and no ceiling added.
std::vector<Ceiling> kv_tier_ceilings(const Ceilings& have, const std::vector<Params>& problems);

}  // namespace memwall

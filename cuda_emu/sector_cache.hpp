// A set-associative LRU cache of lines filled sector by sector, as NVIDIA's L1 and L2 are
// organised (CacheConfig). Write-back, and writes allocate without fetching (a GPU's L2 keeps
// byte masks for partial sectors).
#pragma once

#include <cstdint>
#include <vector>

#include "cuda_emu/options.hpp"

namespace memwall::emu {

// The sector of the traffic counters (CUPTI's): 32 bytes.
inline constexpr std::uint64_t kSectorBytes = 32;

class SectorCache {
  public:
    // Throws std::invalid_argument for a geometry CacheConfig does not allow.
    explicit SectorCache(const CacheConfig& config);

    bool enabled() const { return sets_ != 0; }
    const CacheConfig& config() const { return config_; }

    // Reads the sector holding byte `address`: true on a hit, a miss fills it.
    bool read(std::uint64_t address);
    // Writes the sector holding byte `address`: it becomes valid and dirty.
    void write(std::uint64_t address);
    // Empties the cache and zeroes the counts below; dirty sectors are dropped.
    void clear();
    // Writes every dirty sector back: it stays valid, now clean. Zeroes the counts below.
    void clean();

    std::uint64_t dirty_sectors() const { return dirty_; }        // dirty now
    std::uint64_t written_back() const { return written_back_; }  // dirty sectors evicted

  private:
    struct Way {
        std::uint64_t line = 0;
        std::uint64_t last_use = 0;
        std::uint32_t epoch = 0;  // valid only when equal to the cache's epoch
        std::uint8_t valid = 0;   // sector masks
        std::uint8_t dirty = 0;
    };
    Way& find_or_allocate(std::uint64_t line);
    std::uint8_t sector_bit(std::uint64_t address) const;

    CacheConfig config_;
    std::uint64_t sets_ = 0;
    std::vector<Way> ways_;  // sets_ x config_.ways
    std::uint32_t epoch_ = 1;
    std::uint64_t clock_ = 0;
    std::uint64_t dirty_ = 0;
    std::uint64_t written_back_ = 0;
};

}  // namespace memwall::emu

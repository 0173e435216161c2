#include "cuda_emu/sector_cache.hpp"

#include <bit>
#include <stdexcept>
#include <string>

namespace memwall::emu {

SectorCache::SectorCache(const CacheConfig& config) : config_(config) {
    if (config.bytes == 0) return;
    const std::size_t line = config.line_bytes, sector = config.sector_bytes;
    if (sector < 32 || !std::has_single_bit(sector) || line % sector != 0 || line / sector > 8)
        throw std::invalid_argument("cache line of " + std::to_string(line) + " bytes in sectors of " +
                                    std::to_string(sector) + ": sectors must be powers of two " +
                                    "from 32 bytes, at most 8 per line");
    if (config.ways == 0 || config.bytes % (line * config.ways) != 0)
        throw std::invalid_argument("cache of " + std::to_string(config.bytes) + " bytes is not " +
                                    "a whole number of sets of " + std::to_string(config.ways) + " lines of " +
                                    std::to_string(line) + " bytes");
    sets_ = config.bytes / (line * config.ways);
    ways_.resize(sets_ * config.ways);
}

std::uint8_t SectorCache::sector_bit(std::uint64_t address) const {
    return static_cast<std::uint8_t>(1u << (address % config_.line_bytes / config_.sector_bytes));
}

SectorCache::Way& SectorCache::find_or_allocate(std::uint64_t line) {
    Way* set = &ways_[(line % sets_) * config_.ways];
    Way* victim = set;
    for (std::size_t w = 0; w < config_.ways; ++w) {
        Way& way = set[w];
        if (way.epoch != epoch_) {
            if (victim->epoch == epoch_) victim = &way;  // prefer an empty way
            continue;
        }
        if (way.line == line) {
            way.last_use = ++clock_;
            return way;
        }
        if (victim->epoch == epoch_ && way.last_use < victim->last_use) victim = &way;
    }
    if (victim->epoch == epoch_) {
        const auto evicted = static_cast<std::uint64_t>(std::popcount(victim->dirty));
        written_back_ += evicted;
        dirty_ -= evicted;
    }
    *victim = Way{line, ++clock_, epoch_, 0, 0};
    return *victim;
}

bool SectorCache::read(std::uint64_t address) {
    Way& way = find_or_allocate(address / config_.line_bytes);
    const std::uint8_t bit = sector_bit(address);
    const bool hit = (way.valid & bit) != 0;
    way.valid |= bit;
    return hit;
}

void SectorCache::write(std::uint64_t address) {
    Way& way = find_or_allocate(address / config_.line_bytes);
    const std::uint8_t bit = sector_bit(address);
    way.valid |= bit;
    if ((way.dirty & bit) == 0) {
        way.dirty |= bit;
        ++dirty_;
    }
}

void SectorCache::clear() {
    // A new epoch invalidates every way without touching them.
    if (++epoch_ == 0) {
        for (Way& w : ways_) w.epoch = 0;
        epoch_ = 1;
    }
    dirty_ = 0;
    written_back_ = 0;
}

void SectorCache::clean() {
    if (dirty_ > 0)
        for (Way& w : ways_)
            if (w.epoch == epoch_) w.dirty = 0;
    dirty_ = 0;
    written_back_ = 0;
}

}  // namespace memwall::emu

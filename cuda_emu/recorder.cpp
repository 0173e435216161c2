#include "cuda_emu/recorder.hpp"

#include <algorithm>
#include <bit>
#include <memory>

#include "cuda_emu/arena.hpp"

namespace memwall::emu::detail {

constinit thread_local Recorder* active_recorder = nullptr;
constinit thread_local bool hooks_called = false;

namespace {

// One L2 model for the process (launches run one at a time), kept between launches so that
// a 50 MiB model is not rebuilt for each. It starts cold outside a traffic scope and at a
// scope's first launch (the harness's L2 flush before a run), and stays warm across the launches
// of one scope, as a GPU's L2 does across a forward pass's kernels: what one launch wrote, the
// next reads from L2 (on an H100, naive attention's score matrix between its passes).
SectorCache& shared_l2(const CacheConfig& config) {
    static std::unique_ptr<SectorCache> l2;
    static std::uint64_t served = 0;
    const std::uint64_t generation = scope_generation();
    if (!l2 || !(l2->config() == config))
        l2 = std::make_unique<SectorCache>(config);
    else if (generation == 0 || generation != served)
        l2->clear();
    served = generation;
    return *l2;
}

void mark(std::vector<std::uint64_t>& bitmap, std::uint64_t sector) {
    if (sector / 64 < bitmap.size()) bitmap[sector / 64] |= std::uint64_t{1} << (sector % 64);
}

}  // namespace

Recorder::Recorder(const EmulationOptions& options, std::size_t arena_extent, unsigned threads)
    : l1_(options.l1),
      l2_(shared_l2(options.l2)),
      read_((arena_extent / kSectorBytes + 63) / 64),
      written_(read_.size()),
      warp_sites_((threads + 31) / 32),
      lane_sites_(threads) {}

void Recorder::begin_block() {
    l1_.clear();
    converge_block();
}

void Recorder::converge_block() {
    for (unsigned w = 0; w < warp_sites_.size(); ++w) converge_warp(w);
}

void Recorder::converge_warp(unsigned warp) {
    for (Site& s : warp_sites_[warp]) s.used = 0;
    const auto end = std::min<std::size_t>(lane_sites_.size(), (warp + 1) * std::size_t{32});
    for (std::size_t t = warp * std::size_t{32}; t < end; ++t) lane_sites_[t].clear();
}

Recorder::Request& Recorder::request_for(std::uintptr_t site, std::uint64_t& requests) {
    // This lane's execution count of the site says which warp request the access belongs to.
    std::vector<LaneSite>& lane = lane_sites_[thread_];
    auto l = std::find_if(lane.begin(), lane.end(), [&](const LaneSite& x) { return x.address == site; });
    if (l == lane.end()) l = lane.insert(lane.end(), LaneSite{site, 0});
    const std::uint32_t n = l->executions++;

    std::vector<Site>& sites = warp_sites_[thread_ / 32];
    auto s = std::find_if(sites.begin(), sites.end(), [&](const Site& x) { return x.address == site; });
    if (s == sites.end()) s = sites.insert(sites.end(), Site{site, 0, {}});
    if (n == s->used) {  // the first lane to get this far opens the request
        if (s->requests.size() == n) s->requests.emplace_back();
        s->requests[n].sectors.clear();
        ++s->used;
        ++requests;
    }
    return s->requests[n];
}

void Recorder::record(std::uint64_t offset, std::size_t bytes, AccessKind kind, std::uintptr_t site, bool through_l1) {
    AccessCounts& counts = kind == AccessKind::load    ? stats_.load
                           : kind == AccessKind::store ? stats_.store
                                                       : stats_.atomic;
    counts.bytes += bytes;
    ++counts.accesses;
    if (bytes == 0) return;
    Request& request = request_for(site, counts.requests);
    const std::uint64_t last = (offset + bytes - 1) / kSectorBytes;
    for (std::uint64_t s = offset / kSectorBytes; s <= last; ++s) {
        if (kind != AccessKind::store) mark(read_, s);
        if (kind != AccessKind::load) mark(written_, s);
        // Coalesced lanes mostly hit the sector added last: search from the back.
        if (std::find(request.sectors.rbegin(), request.sectors.rend(), s) != request.sectors.rend()) continue;
        request.sectors.push_back(s);
        ++counts.sectors;
        to_l2(s, kind, counts, through_l1);
    }
}

void Recorder::record_shared(std::size_t bytes, AccessKind kind, std::uintptr_t site) {
    SharedAccessCounts& counts = kind == AccessKind::load    ? stats_.shared.load
                                 : kind == AccessKind::store ? stats_.shared.store
                                                             : stats_.shared.atomic;
    counts.bytes += bytes;
    ++counts.accesses;
    if (bytes == 0) return;
    // Requests group the lanes' executions of an instruction as for global accesses, under a
    // key no instruction address takes (user-space addresses leave the top bit clear): an
    // instruction that reaches both memories through a generic pointer forms requests apart.
    request_for(~site, counts.requests);
}

void Recorder::record_host(std::uint64_t offset, std::size_t bytes, AccessKind kind, std::uintptr_t site) {
    HostAccessCounts& counts = kind == AccessKind::load    ? stats_.host.load
                               : kind == AccessKind::store ? stats_.host.store
                                                           : stats_.host.atomic;
    counts.bytes += bytes;
    ++counts.accesses;
    if (bytes == 0) return;
    // Requests apart from the same instruction's global and shared ones (bit 62 is clear in
    // user-space addresses and set in shared memory's keys, whose bit 63 this one lacks): host
    // offsets and arena offsets name different sectors.
    Request& request = request_for(site | std::uintptr_t{1} << 62, counts.requests);
    const std::uint64_t last = (offset + bytes - 1) / kSectorBytes;
    for (std::uint64_t s = offset / kSectorBytes; s <= last; ++s) {
        if (std::find(request.sectors.rbegin(), request.sectors.rend(), s) != request.sectors.rend()) continue;
        request.sectors.push_back(s);
        ++counts.sectors;
    }
}

void Recorder::to_l2(std::uint64_t sector, AccessKind kind, AccessCounts& counts, bool through_l1) {
    const std::uint64_t address = sector * kSectorBytes;
    // L1 caches loads only: stores write through, atomics execute at L2.
    if (kind == AccessKind::load && through_l1 && l1_.enabled() && l1_.read(address)) return;
    ++counts.l2_sectors;
    if (!l2_.enabled()) {  // every request goes to DRAM
        if (kind != AccessKind::store) stats_.dram_read_bytes += kSectorBytes;
        if (kind != AccessKind::load) stats_.dram_write_bytes += kSectorBytes;
        return;
    }
    if (kind != AccessKind::store && !l2_.read(address)) stats_.dram_read_bytes += l2_.config().sector_bytes;
    if (kind != AccessKind::load) l2_.write(address);
}

TrafficStats Recorder::finish() {
    std::uint64_t any = 0, read = 0, written = 0;
    for (std::size_t i = 0; i < read_.size(); ++i) {
        any += static_cast<std::uint64_t>(std::popcount(read_[i] | written_[i]));
        read += static_cast<std::uint64_t>(std::popcount(read_[i]));
        written += static_cast<std::uint64_t>(std::popcount(written_[i]));
    }
    stats_.distinct_sectors = any;
    stats_.distinct_sectors_read = read;
    stats_.distinct_sectors_written = written;
    // Dirty sectors are counted as written back at the end of the launch and stay valid, clean,
    // for the next launch of the scope.
    stats_.dram_write_bytes += (l2_.written_back() + l2_.dirty_sectors()) * l2_.config().sector_bytes;
    l2_.clean();
    stats_.launches = 1;
    return stats_;
}

}  // namespace memwall::emu::detail

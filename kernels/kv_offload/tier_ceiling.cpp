#include "kernels/kv_offload/tier_ceiling.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <set>

#include "core/bytes.hpp"
#include "core/errors.hpp"
#include "kernels/kv_offload/kv_offload.hpp"
#include "kernels/kv_offload/scratch_file.hpp"
#include "kernels/kv_offload/uring_reader.hpp"

namespace memwall {

namespace {

using Clock = std::chrono::steady_clock;

std::string block_name(std::size_t bytes) {
    return bytes >= (std::size_t{1} << 20) ? std::to_string(bytes >> 20) + "MiB" : std::to_string(bytes >> 10) + "KiB";
}

}  // namespace

double tier_read_rate(const ScratchFile& file, std::size_t block, unsigned depth, bool random, double seconds) {
    DirectBuffer buffer(static_cast<std::size_t>(depth) * block);
    UringReader reader(file, depth, file.o_direct(), buffer);
    const std::uint64_t blocks = file.size() / block;
    // Enough requests per batch that the refills at its end, when fewer than `depth` are left in
    // flight, are a small part of it.
    const std::size_t batch = std::max<std::size_t>(16 * depth, 64);
    std::vector<ReadRequest> requests(batch);
    std::mt19937_64 gen(block * 131 + depth);
    std::uniform_int_distribution<std::uint64_t> pick(0, blocks - 1);
    std::uint64_t next = 0;
    auto fill = [&] {
        for (std::size_t i = 0; i < batch; ++i) {
            const std::uint64_t b = random ? pick(gen) : next++ % blocks;
            // The slots are shared by the reads in flight: only the rate matters here.
            requests[i] = {buffer.data() + (i % depth) * block, b * block, block};
        }
    };
    fill();
    reader.read(requests);
    double bytes = 0;
    const auto start = Clock::now();
    double elapsed = 0;
    do {
        fill();  // timed too, but drawing offsets costs far less than a read
        reader.read(requests);
        bytes += static_cast<double>(batch * block);
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < seconds);
    return bytes / elapsed;
}

// Ends with the directory: has_tier_ceilings() looks for it there.
namespace {

std::string method_suffix(const ScratchFile& f, const std::filesystem::path& dir, int passes) {
    std::string s =
        f.o_direct() ? "O_DIRECT" : "buffered: the file system refuses O_DIRECT, so the page cache serves them";
    return s + ", best of " + std::to_string(passes) + " sweeps; " + format_bytes(static_cast<double>(f.size())) +
           " file in " + dir.string();
}

}  // namespace

std::vector<std::size_t> tier_block_sizes() {
    std::vector<std::size_t> out;
    for (std::size_t b = 4096; b <= (std::size_t{1} << 20); b *= 2) out.push_back(b);
    return out;
}

std::string tier_level(std::uint64_t page_bytes) {
    std::size_t b = 4096;
    while (b < page_bytes && b < (std::size_t{1} << 20)) b *= 2;
    return "tier.rand." + block_name(b);
}

TierMeasurement measure_tier(const std::filesystem::path& dir, const TierOptions& opt) {
    check_scratch_directory(dir, opt.file_bytes);
    std::vector<unsigned char> chunk(std::size_t{1} << 20);
    std::mt19937 gen(7);
    for (auto& c : chunk) c = static_cast<unsigned char>(gen());  // not zeros: no file system skips them
    const ScratchFile file(dir, opt.file_bytes, chunk.data(), chunk.size());
    TierMeasurement m;
    const std::size_t seq = std::size_t{1} << 20;
    const unsigned seq_depth = 16;
    for (int pass = 0; pass < opt.passes; ++pass) {
        std::size_t at = 0;
        auto keep = [&](const TierPoint& p) {
            if (pass == 0)
                m.points.push_back(p);
            else
                m.points[at].bytes_per_second = std::max(m.points[at].bytes_per_second, p.bytes_per_second);
            ++at;
        };
        for (const std::size_t block : opt.blocks) {
            if (block > file.size()) continue;
            for (const unsigned depth : opt.depths) {
                if (!file.o_direct()) file.evict();  // buffered: start each point from the device, if it can
                keep({block, depth, true, tier_read_rate(file, block, depth, true, opt.seconds_per_point)});
            }
        }
        if (seq <= file.size())
            keep({seq, seq_depth, false, tier_read_rate(file, seq, seq_depth, false, opt.seconds_per_point)});
    }
    const std::string suffix = method_suffix(file, dir, opt.passes);
    for (const std::size_t block : opt.blocks) {
        const TierPoint* best = nullptr;
        for (const TierPoint& p : m.points)
            if (p.random && p.block == block && (!best || p.bytes_per_second > best->bytes_per_second)) best = &p;
        if (!best) continue;
        m.ceilings.push_back({tier_level(block), CeilingKind::bandwidth, best->bytes_per_second, "B/s",
                              "random " + block_name(block) + " reads through io_uring, best of queue depths (" +
                                  std::to_string(best->depth) + " in flight), " + suffix});
    }
    for (const TierPoint& p : m.points)
        if (!p.random)
            m.ceilings.push_back({tier_sequential_level, CeilingKind::bandwidth, p.bytes_per_second, "B/s",
                                  "sequential 1MiB reads through io_uring, 16 in flight, " + suffix});
    return m;
}

bool has_tier_ceilings(const Ceilings& have, const std::filesystem::path& dir) {
    const std::string where = " file in " + dir.string();
    return std::any_of(have.items.begin(), have.items.end(), [&](const Ceiling& c) {
        return c.name.rfind("tier.", 0) == 0 && c.method.size() >= where.size() &&
               c.method.compare(c.method.size() - where.size(), where.size(), where) == 0;
    });
}

std::vector<Ceiling> kv_tier_ceilings(const Ceilings& have, const std::vector<Params>& problems) {
    if (problems.empty()) return {};
    const std::filesystem::path dir = kv_scratch_directory();
    if (has_tier_ceilings(have, dir)) return {};
    try {
        std::fprintf(stderr, "memwall: measuring the kv_offload tier's read bandwidth in %s\n", dir.c_str());
        return measure_tier(dir).ceilings;
    } catch (const EnvironmentError& e) {
        std::fprintf(stderr, "memwall: tier ceilings not measured: %s\n", e.what());
        return {};
    }
}

}  // namespace memwall

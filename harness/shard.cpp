#include "harness/shard.hpp"

#include <algorithm>
#include <numeric>
#include <queue>

#include "core/errors.hpp"
#include "metrics/counter.hpp"
#include "metrics/memory_hierarchy.hpp"

namespace memwall {

Shard parse_shard(const std::string& text) {
    const auto bad = [&] { return UsageError("--shard takes I/N with 0 <= I < N, got '" + text + "'"); };
    const auto slash = text.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) throw bad();
    const auto whole = [&](const std::string& digits) {
        if (digits.size() > 9 ||
            !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            throw bad();
        return static_cast<std::size_t>(std::stoul(digits));
    };
    Shard s{whole(text.substr(0, slash)), whole(text.substr(slash + 1))};
    if (s.count == 0 || s.index >= s.count) throw bad();
    return s;
}

std::string to_string(const Shard& s) { return std::to_string(s.index) + "/" + std::to_string(s.count); }

double predicted_cost(const PlannedCase& c, const SamplerSettings& sampler) {
    constexpr double bytes_per_second = 20e9, flops_per_second = 200e9;
    double run = 0;
    if (c.variant->model) {
        // A fixed hierarchy: the host's would let shards on different machines disagree.
        static const MemoryHierarchy nominal{{{"l1", 32 << 10, 1}, {"l2", 1 << 20, 1}, {"llc", 32 << 20, 16}}, 1};
        try {
            const auto counters = c.variant->model(c.problem.merged(c.config), nominal);
            if (const Counter* b = find_counter(counters, "bytes.min"))
                run = std::max(run, b->value / bytes_per_second);
            if (const Counter* f = find_counter(counters, "flops")) run = std::max(run, f->value / flops_per_second);
        } catch (const std::exception&) {  // a model that cannot price a point leaves the floor
        }
    }
    return sampler.min_time + run * (sampler.warmup_runs + 1 + sampler.min_samples);
}

std::vector<std::size_t> assign_shards(const std::vector<double>& costs, std::size_t shards) {
    std::vector<std::size_t> order(costs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return costs[a] > costs[b]; });
    using Load = std::pair<double, std::size_t>;  // cost so far, shard
    std::priority_queue<Load, std::vector<Load>, std::greater<>> least;
    for (std::size_t s = 0; s < shards; ++s) least.push({0.0, s});
    std::vector<std::size_t> shard_of(costs.size());
    for (std::size_t i : order) {
        auto [load, s] = least.top();
        least.pop();
        shard_of[i] = s;
        least.push({load + costs[i], s});
    }
    return shard_of;
}

}  // namespace memwall

// The kv_offload problem: reading and validating its axes, FLOPs and bytes, and the seeded page
// selections with their reuse between consecutive steps.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>
#include <random>
#include <string>

#include "core/errors.hpp"
#include "kernels/kv_offload/kv_offload.hpp"

namespace memwall {

namespace {
std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}
}  // namespace

KvProblem KvProblem::from(const Params& p) {
    KvProblem x;
    x.context = p.integer("context");
    x.page_tokens = p.integer("page_tokens");
    x.heads = p.integer("heads");
    x.head_dim = p.integer("head_dim");
    x.select = p.real("select");
    x.reuse = p.real("reuse");
    x.steps = p.integer("steps");
    x.warm = p.integer("warm") != 0;
    if (p.has("selection")) {
        const std::string& selection = p.str("selection");
        if (selection != "seeded" && selection != "topk")
            throw UsageError("kv_offload: selection must be seeded or topk, got '" + selection + "'");
        x.topk = selection == "topk";
        x.label_channels = p.integer("label_channels");
    }
    if (p.str("dtype") != "fp32") throw UsageError("kv_offload: dtype must be fp32, got '" + p.str("dtype") + "'");
    if (p.str("tier") != "file") throw UsageError("kv_offload: tier must be file, got '" + p.str("tier") + "'");
    if (x.context < 1 || x.page_tokens < 1 || x.heads < 1 || x.head_dim < 1 || x.steps < 1)
        throw UsageError("kv_offload: context, page_tokens, heads, head_dim and steps must be at least 1");
    if (x.context % x.page_tokens != 0)
        throw UsageError("kv_offload: context " + std::to_string(x.context) + " is not a whole number of pages of " +
                         std::to_string(x.page_tokens) + " tokens");
    if (!(x.select > 0.0 && x.select <= 1.0)) throw UsageError("kv_offload: select must be in (0, 1]");
    if (!(x.reuse >= 0.0 && x.reuse <= 1.0)) throw UsageError("kv_offload: reuse must be in [0, 1]");
    if (x.topk && (x.label_channels < 1 || x.label_channels > x.head_dim))
        throw UsageError("kv_offload: label_channels must be 1 to head_dim (" + std::to_string(x.head_dim) + "), got " +
                         std::to_string(x.label_channels));
    // Each step after the first adds selected - reused pages that the previous step left out.
    const std::int64_t fresh = x.selected() - x.reused(), outside = x.pages() - x.selected();
    if (!x.topk && x.steps > 1 && fresh > outside)
        throw UsageError("kv_offload: select " + num(x.select) + " of " + std::to_string(x.pages()) +
                         " pages with reuse " + num(x.reuse) + " needs " + std::to_string(fresh) +
                         " new pages per step but only " + std::to_string(outside) +
                         " are outside the previous selection: lower select or raise reuse");
    return x;
}

std::int64_t KvProblem::selected() const {
    return std::max<std::int64_t>(1, std::llround(select * static_cast<double>(pages())));
}

std::int64_t KvProblem::reused() const { return std::llround(reuse * static_cast<double>(selected())); }

double KvProblem::tier_bytes() const {
    return static_cast<double>(steps) * static_cast<double>(selected()) * static_cast<double>(page_bytes());
}

double KvProblem::flops() const {
    const double tokens = static_cast<double>(steps * selected() * page_tokens);
    return 4.0 * tokens * static_cast<double>(heads * head_dim);
}

double KvProblem::min_bytes() const {
    // Queries in, outputs out: one head_dim vector each per step and head.
    return tier_bytes() + 2.0 * sizeof(float) * static_cast<double>(out_floats());
}

std::vector<std::vector<std::int64_t>> kv_selections(const KvProblem& p, std::uint64_t seed) {
    std::mt19937_64 gen(seed ^ 0x6b765f73656cULL);  // apart from the inputs' stream
    const std::int64_t pages = p.pages(), n = p.selected(), keep = p.reused();
    // The first `k` entries of `from`, after moving a random choice of them there.
    auto choose = [&](std::vector<std::int64_t> from, std::int64_t k) {
        for (std::int64_t i = 0; i < k; ++i) {
            std::uniform_int_distribution<std::int64_t> pick(i, static_cast<std::int64_t>(from.size()) - 1);
            std::swap(from[static_cast<std::size_t>(i)], from[static_cast<std::size_t>(pick(gen))]);
        }
        from.resize(static_cast<std::size_t>(k));
        return from;
    };
    std::vector<std::int64_t> all(static_cast<std::size_t>(pages));
    std::iota(all.begin(), all.end(), 0);
    std::vector<std::vector<std::int64_t>> out;
    out.reserve(static_cast<std::size_t>(p.steps));
    out.push_back(choose(all, n));
    std::sort(out.back().begin(), out.back().end());
    for (std::int64_t s = 1; s < p.steps; ++s) {
        const auto& prev = out.back();
        std::vector<std::int64_t> outside;
        std::set_difference(all.begin(), all.end(), prev.begin(), prev.end(), std::back_inserter(outside));
        std::vector<std::int64_t> next = choose(prev, keep);
        const std::vector<std::int64_t> fresh = choose(std::move(outside), n - keep);
        next.insert(next.end(), fresh.begin(), fresh.end());
        std::sort(next.begin(), next.end());
        out.push_back(std::move(next));
    }
    return out;
}

std::uint64_t lru_hits(const std::vector<std::vector<std::int64_t>>& selections, std::int64_t capacity) {
    std::map<std::int64_t, std::int64_t> last;            // the cached pages and the step that used them last
    std::set<std::pair<std::int64_t, std::int64_t>> age;  // (step, page): the first entry goes first
    std::uint64_t hits = 0;
    for (std::size_t s = 0; s < selections.size(); ++s) {
        const auto step = static_cast<std::int64_t>(s);
        std::vector<std::int64_t> missed;
        for (const std::int64_t page : selections[s]) {
            const auto it = last.find(page);
            if (it == last.end()) {
                missed.push_back(page);
                continue;
            }
            ++hits;
            age.erase({it->second, page});
            it->second = step;
            age.insert({step, page});
        }
        for (const std::int64_t page : missed) {
            if (static_cast<std::int64_t>(last.size()) == capacity) {
                last.erase(age.begin()->second);
                age.erase(age.begin());
            }
            last[page] = step;
            age.insert({step, page});
        }
    }
    return hits;
}

}  // namespace memwall

#include "tests/support/synthetic_results.hpp"

#include <array>
#include <cmath>
#include <random>

#include <nlohmann/json.hpp>

#include "results/store.hpp"

namespace memwall::gui {

std::int64_t write_synthetic_run(const std::string& path, std::size_t cases, std::uint64_t seed,
                                 const std::string& tag_value) {
    Store store = Store::open(path, Store::Mode::create);
    RunInfo info;
    info.host = "synthetic";
    info.backend = "cpu,cuda-emu";
    info.device = "synthetic device";
    info.command_line = "write_synthetic_run";
    info.memwall_version = "synthetic";
    info.sweep = "{}";
    info.tags = {{"data", tag_value}};
    info.status = RunStatus::complete;
    const std::int64_t run = store.begin_run(info);
    Ceilings c;
    c.items = {{"l1", CeilingKind::bandwidth, 460e9, "B/s", "synthetic", 32768},
               {"l2", CeilingKind::bandwidth, 250e9, "B/s", "synthetic", 1 << 20},
               {"llc", CeilingKind::bandwidth, 240e9, "B/s", "synthetic", 32 << 20},
               {"dram", CeilingKind::bandwidth, 35e9, "B/s", "synthetic", 0},
               {"fp32_fma", CeilingKind::compute, 235e9, "FLOP/s", "synthetic", 0}};
    store.save_ceilings(run, c);

    static constexpr std::array<const char*, 3> kVariants{"naive", "flash", "flash_blocksparse"};
    static constexpr std::array<const char*, 2> kBackends{"cpu", "cuda-emu"};
    static constexpr std::array<int, 5> kTiles{16, 32, 64, 128, 256};
    std::mt19937_64 rng(seed);
    std::lognormal_distribution<double> noise(0, 0.05);
    for (std::size_t i = 0; i < cases; ++i) {
        // Walk the grid with i as a mixed-radix number (kernel, then problem, then tiles), so
        // every case is distinct; what is left of i sets the heads.
        std::size_t k = i;
        const auto digit = [&k](std::size_t n) {
            const std::size_t d = k % n;
            k /= n;
            return d;
        };
        const std::size_t v = digit(kVariants.size()), b = digit(kBackends.size()), d = digit(2);
        const auto seq = static_cast<std::int64_t>(64 << digit(6));
        const bool tiled = v != 0;
        const std::size_t br = tiled ? digit(kTiles.size()) : 2, bc = tiled ? digit(kTiles.size()) : 3;
        const auto heads = static_cast<std::int64_t>(1 + k);
        const int head_dim = d == 0 ? 64 : 128;
        CaseRecord rec;
        rec.run_id = run;
        rec.key.family = "attention";
        rec.key.variant = kVariants[v];
        rec.key.backend = kBackends[b];
        rec.key.problem = nlohmann::json{{"batch", 1},     {"causal", 0},  {"head_dim", head_dim},
                                         {"heads", heads}, {"seq_k", seq}, {"seq_q", seq}}
                              .dump();
        rec.key.config = !tiled ? "{}" : nlohmann::json{{"Bc", kTiles[bc]}, {"Br", kTiles[br]}}.dump();
        const double flops = 4.0 * static_cast<double>(heads * seq * seq * head_dim);
        const double min_bytes = 16.0 * static_cast<double>(heads * seq * head_dim);
        const double dram =
            !tiled ? min_bytes + 8.0 * static_cast<double>(heads * seq * seq) : min_bytes * (1 + 64.0 / kTiles[br]);
        const double efficiency =
            0.05 + 0.5 / (1 + std::abs(std::log2(kTiles[br] / 64.0)) + std::abs(std::log2(kTiles[bc] / 128.0)));
        const double seconds = std::max(flops / (235e9 * efficiency), dram / 35e9);
        rec.samples = {{seconds * noise(rng), seconds * noise(rng), seconds * noise(rng)}};
        const CounterSource bytes_source = b == 1 ? CounterSource::emu : CounterSource::model;
        rec.counters = {{"flops", flops, "FLOP", CounterSource::model},
                        {"bytes.min", min_bytes, "B", CounterSource::model},
                        {"bytes.dram", dram, "B", bytes_source},
                        {"bytes.l2", dram * 2, "B", bytes_source},
                        {"bytes.l1", dram * 6, "B", bytes_source}};
        store.save_case(rec);
    }
    store.finish_run(run, RunStatus::complete);
    return run;
}

}  // namespace memwall::gui

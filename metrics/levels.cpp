#include "metrics/levels.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <utility>

namespace memwall {

const std::vector<LevelRule>& level_rules() {
    static const std::vector<LevelRule> rules{
        // GPU DRAM (HBM): CUPTI, or cuda-emu's L2-model estimate under the same names.
        {"dram", {"dram__bytes_read.sum", "dram__bytes_write.sum"}, 1, "DRAM bytes read and written"},
        {"dram", {"dram__bytes.sum"}, 1, "DRAM bytes"},
        {"dram", {"dram__sectors_read.sum", "dram__sectors_write.sum"}, 32, "DRAM sectors x 32 B"},
        // GPU L2: every request the L2 slices serve.
        {"l2", {"lts__t_bytes.sum"}, 1, "L2 bytes"},
        {"l2", {"lts__t_sectors.sum"}, 32, "L2 sectors x 32 B"},
        {"l2",
         {"lts__t_sectors_op_read.sum", "lts__t_sectors_op_write.sum", "lts__t_sectors_op_atom.sum"},
         32,
         "L2 sectors read, written and atomic x 32 B"},
        {"l2", {"lts__t_sectors_op_read.sum", "lts__t_sectors_op_write.sum"}, 32, "L2 sectors read and written x 32 B"},
        // GPU L1/TEX: the global-memory sectors the SM's loads, stores and atomics request.
        {"l1", {"l1tex__t_bytes.sum"}, 1, "L1/TEX bytes"},
        {"l1",
         {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
          "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"},
         32,
         "global L1/TEX sectors x 32 B"},
        {"l1",
         {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"},
         32,
         "global L1/TEX sectors loaded and stored x 32 B"},
        // CPU (perf_event): lines the loads missed, a lower bound (stores and prefetches unseen).
        {"dram", {"llc.load_misses"}, 64, "last-level-cache load misses x 64 B (loads only)", true},
        {"l2", {"l1d.load_misses"}, 64, "L1d load misses x 64 B (loads only)", true},
    };
    return rules;
}

int outer_rank(std::string_view level) {
    if (level.rfind("tier.", 0) == 0) return -1;  // a slower tier behind DRAM (kv_offload's file)
    if (level == "dram") return 0;
    if (level == "llc") return 1;
    int n = 0;
    if (level.size() > 1 && level[0] == 'l') {
        auto [end, ec] = std::from_chars(level.data() + 1, level.data() + level.size(), n);
        if (ec == std::errc{} && end == level.data() + level.size() && n > 0 && n < 100) return 100 - n;
    }
    return 1000;
}

std::vector<LevelBytes> bytes_by_level(const std::vector<Counter>& counters) {
    // Counters by source, then name.
    std::vector<CounterSource> sources;
    std::map<std::pair<CounterSource, std::string>, double> value;
    for (const Counter& c : counters) {
        if (std::find(sources.begin(), sources.end(), c.source) == sources.end()) sources.push_back(c.source);
        value.emplace(std::pair{c.source, c.name}, c.value);
    }
    std::vector<LevelBytes> out;
    auto have = [&](CounterSource s, const std::string& level) {
        return std::any_of(out.begin(), out.end(),
                           [&](const LevelBytes& l) { return l.source == s && l.level == level; });
    };
    for (CounterSource s : sources) {
        const std::string prefix = "bytes.";
        for (const Counter& c : counters)
            if (c.source == s && c.name.rfind(prefix, 0) == 0 && c.name != counters::kBytesMin &&
                !have(s, c.name.substr(prefix.size())))
                out.push_back({c.name.substr(prefix.size()), s, c.value, c.name});
        for (const LevelRule& r : level_rules()) {
            const std::string level(r.level);
            if (have(s, level)) continue;
            double sum = 0;
            std::string names;
            bool all = true;
            for (std::string_view name : r.counters) {
                const auto it = value.find({s, std::string(name)});
                if (it == value.end()) {
                    all = false;
                    break;
                }
                sum += it->second;
                names += (names.empty() ? "" : " + ") + std::string(name);
            }
            if (!all) continue;
            if (r.scale != 1) names = "(" + names + ") x " + std::to_string(static_cast<int>(r.scale));
            out.push_back({level, s, sum * r.scale, names, r.lower_bound});
        }
    }
    return out;
}

}  // namespace memwall

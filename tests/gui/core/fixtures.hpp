// Cases and ceilings built in memory, and tuning sessions stored through results/tuning_store,
// for the GUI's model and chart tests.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gui/core/case_data.hpp"
#include "results/tuning_store.hpp"

namespace memwall::gui::test {

// CPU-like ceilings: L1 400 GB/s, L2 200 GB/s, DRAM 40 GB/s, FP32 FMA 200 GFLOP/s.
inline Ceilings ceilings() {
    Ceilings c;
    c.items = {{"l1", CeilingKind::bandwidth, 400e9, "B/s", "test", 32768},
               {"l2", CeilingKind::bandwidth, 200e9, "B/s", "test", 1 << 20},
               {"dram", CeilingKind::bandwidth, 40e9, "B/s", "test", 0},
               {"fp32_fma", CeilingKind::compute, 200e9, "FLOP/s", "test", 0}};
    return c;
}

struct RowSpec {
    std::int64_t id = 1, run = 1;
    std::string variant = "flash", backend = "cpu";
    std::string problem = R"({"seq":512})", config = R"({"Br":32})";
    double median = 1e-3;  // 0: untimed
    double flops = 1e9, dram_bytes = 1e8, l2_bytes = 0;
    CounterSource source = CounterSource::model;
    CaseStatus status = CaseStatus::ok;
};

// A case placed on ceilings(): min/q1/q3 at 0.98/0.99/1.01 of the median.
inline CaseRow row(const RowSpec& s) {
    CaseRow r;
    r.id = s.id;
    r.run_id = s.run;
    r.key = CaseKey{"attention", s.variant, s.backend, s.problem, s.config};
    r.status = s.status;
    r.n_samples = s.median > 0 ? 10 : 0;
    r.median = s.median;
    r.min = s.median * 0.98;
    r.q1 = s.median * 0.99;
    r.q3 = s.median * 1.01;
    std::vector<Counter> counters{{"flops", s.flops, "FLOP", CounterSource::model},
                                  {"bytes.dram", s.dram_bytes, "B", s.source}};
    if (s.l2_bytes > 0) counters.push_back({"bytes.l2", s.l2_bytes, "B", s.source});
    complete_case_row(r, counters, ceilings());
    return r;
}

inline std::vector<const CaseRow*> ptrs(const std::vector<CaseRow>& rows) {
    std::vector<const CaseRow*> out;
    for (const CaseRow& r : rows) out.push_back(&r);
    return out;
}

// A replay of a recorded convolution space on an A100.
inline TuningSessionInfo replay_session(const std::string& strategy, std::uint64_t seed) {
    TuningSessionInfo s;
    s.host = "test";
    s.device = "A100-PCIE-40GB";
    s.backend = "replay";
    s.variant = "convolution";
    s.problem = "{}";
    s.strategy = strategy;
    s.seed = seed;
    s.time_source = TimeSource::recorded;
    s.source_file = "convolution_A100.json.gz";
    return s;
}

// Live tuning of attention/flash, measured on a CPU.
inline TuningSessionInfo live_session(const std::string& strategy) {
    TuningSessionInfo s;
    s.host = "test";
    s.device = "cpu0";
    s.backend = "cpu";
    s.family = "attention";
    s.variant = "flash";
    s.problem = R"({"seq":512})";
    s.strategy = strategy;
    s.time_source = TimeSource::measured;
    return s;
}

// Stores a finished session whose trial i took seconds[i] (nullopt: failed to run) with the
// configuration {"Br": 16 (i + 1)}; returns its id.
inline std::int64_t add_session(Store& store, const TuningSessionInfo& info,
                                const std::vector<std::optional<double>>& seconds) {
    const std::int64_t id = begin_tuning_session(store, info);
    for (std::size_t i = 0; i < seconds.size(); ++i) {
        TrialRecord t;
        t.index = static_cast<std::int64_t>(i);
        t.config = R"({"Br":)" + std::to_string(16 * (i + 1)) + "}";
        t.seconds = seconds[i];
        if (!seconds[i]) {
            t.status = "runtime_failed";
            t.reason = "too many resources requested";
        }
        save_trial(store, id, t);
    }
    finish_tuning_session(store, id, RunStatus::complete, "evaluations");
    return id;
}

}  // namespace memwall::gui::test

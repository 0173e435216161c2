// Databases of synthetic runs for the tests of compare and history: timings drawn from a
// seeded lognormal, so a test knows the truth and its outcome does not depend on the machine.
#pragma once

#include <cmath>
#include <map>
#include <random>
#include <string>

#include "results/store.hpp"

namespace memwall::test {

struct SyntheticRun {
    double scale = 1;  // every median time is multiplied by this (1.2: 20% slower)
    std::uint64_t seed = 1;
    std::map<std::string, std::string> tags;
    std::string device = "AMD EPYC 9B14, 2 threads";
    int repetitions = 5, samples = 10;
    double noise = 0.02;  // lognormal sd of the samples
};

// Adds a complete run with two attention cases (naive at 2 ms, flash at 1 ms, times scale).
inline std::int64_t add_synthetic_run(Store& store, const SyntheticRun& s) {
    RunInfo info;
    info.host = "test-host";
    info.backend = "cpu";
    info.device = s.device;
    info.tags = s.tags;
    const std::int64_t id = store.begin_run(info);
    std::mt19937_64 rng(s.seed);
    std::normal_distribution<double> z(0, s.noise);
    for (auto [variant, ms] : {std::pair<std::string, double>{"naive", 2.0}, {"flash", 1.0}}) {
        CaseRecord c;
        c.run_id = id;
        c.key = {"attention", variant, "cpu", R"({"heads":2,"seq_q":64})", variant == "flash" ? R"({"Br":32})" : "{}"};
        for (int r = 0; r < s.repetitions; ++r) {
            std::vector<double> rep;
            for (int i = 0; i < s.samples; ++i) rep.push_back(ms * 1e-3 * s.scale * std::exp(z(rng)));
            c.samples.push_back(std::move(rep));
        }
        c.counters = {{"flops", 1e8, "FLOP", CounterSource::model}, {"bytes.dram", 1e7, "B", CounterSource::model}};
        store.save_case(c);
    }
    store.finish_run(id, RunStatus::complete);
    return id;
}

}  // namespace memwall::test

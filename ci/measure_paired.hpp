// Paired timing of two builds of a suite, for comparisons that the machine's drift cannot
// fool: every repetition of a case is timed on both builds at once, their samples alternating
// (take_paired_samples), so repetition r of one run pairs with repetition r of the other and
// compare_runs compares them pair by pair.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/measure.hpp"
#include "harness/workload_cache.hpp"

namespace memwall {

// One build's side: the suite's cases, prepared and timed one at a time.
class Arm {
  public:
    virtual ~Arm() = default;
    // Checks case `index` of the suite against its reference and keeps it ready to time; the
    // record (key, counters, status, message) says whether it passed.
    virtual CaseRecord prepare(std::size_t index) = 0;
    // One timed run of the prepared case, in seconds.
    virtual double sample() = 0;
};

// More work for an injected slowdown (test only): every case is measured on its problem with the
// integer axis `axis` multiplied by `factor` (e.g. heads x 1.1: 10% more heads, computed in the
// same passes), under its own key, so it still matches the unchanged case.
struct ProblemScale {
    std::string axis;
    double factor = 1;
    // "heads=1.1"; throws UsageError when malformed.
    static ProblemScale parse(const std::string& text);
    // Throws UsageError when the scaled value is not a whole number.
    Params apply(Params problem) const;
};

// The side measured in this process.
class LocalArm : public Arm {
  public:
    LocalArm(std::vector<PlannedCase> cases, std::uint64_t seed, MemoryHierarchy mh, MeasureOptions opt,
             ProblemScale scale = {});
    CaseRecord prepare(std::size_t index) override;
    double sample() override;

  private:
    ProblemScale scale_;
    std::vector<PlannedCase> cases_;
    std::uint64_t seed_;
    MemoryHierarchy mh_;
    MeasureOptions opt_;
    WorkloadCache workloads_;
    std::unique_ptr<Instance> prepared_;
};

struct PairedRuns {
    std::vector<CaseRecord> base, candidate;  // per case index; samples[r] of both are a pair
    bool interrupted = false;
};

struct PairedPlan {
    std::size_t cases = 0;
    int repetitions = 1;
    bool interleave = true;  // repetitions in a shuffled order across cases, else case by case
    SamplerSettings sampler;
    std::uint64_t seed = 1;  // of the order and of which side goes first in each pair
};

// Each (case, repetition): both arms prepare the case; when both pass, paired samples are one
// repetition of each; when one fails, its record keeps that status and neither is timed. The
// summaries are filled at the end. `progress(done, total)` after each unit; `unit_done(i, base,
// candidate)` too, with case i's records so far (summaries filled), for storing them as they
// grow; a set `stop` ends the measurement after the unit in flight (interrupted).
using UnitDone = std::function<void(std::size_t, CaseRecord, CaseRecord)>;
PairedRuns measure_paired(Arm& base, Arm& candidate, const PairedPlan& plan,
                          const std::function<void(std::size_t, std::size_t)>& progress = {},
                          const std::atomic<bool>* stop = nullptr, const UnitDone& unit_done = {});

}  // namespace memwall

// When a measured ceiling cannot be trusted: the measuring threads did not have the CPUs to
// themselves (another process ran), or the bandwidth levels contradict the memory hierarchy.
// Pure functions of what the measurement recorded, so they are tested on synthetic trials.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "metrics/ceilings.hpp"

namespace memwall {

// One timed round of a measurement (a working set of the sweep, or the FMA peak), summed over
// its threads.
struct TrialRound {
    double cpu_seconds = 0;   // CPU time the threads spent in the timed work
    double wall_seconds = 0;  // wall time of the same work
    double rate = 0;          // work per second of the round
    long reps = 1;            // repetitions of the work in the round
    bool together = true;     // all threads ran at once (ran_together)
};

// Whether the threads of a round ran together, from each thread's start and end (seconds from
// any common origin): the last started within a tenth of the round's span of the first. On a
// busy machine a thread may start a scheduler's slice late, and the rate of threads that took
// turns is not the rate of threads running at once. When they finish is not asked: equal work
// finishes apart on unequal cores (a VM's vCPUs that share a physical core, hybrid cores), and
// that unevenness is part of what an equal split of any kernel gets. A thread descheduled after
// its start lengthens its round, whose rate then loses to the best round's; threads taking turns
// throughout show in their CPU time (kMinCpuShare).
bool ran_together(std::span<const double> starts, std::span<const double> ends);

// Below this share of CPU time in wall time, the threads were taking turns with another
// process: an idle machine gives the timed work well over 95%.
constexpr double kMinCpuShare = 0.9;
// A round this much slower than the median of the full-length rounds is not noise: something
// else used the cores or the memory the threads were measuring.
constexpr double kMaxSpread = 2.0;

// Why the rounds of one measurement cannot be trusted, or empty when they can: no round in
// which all threads ran together, less than kMinCpuShare of the CPU across the rounds, or the
// full-length rounds (those of the most repetitions) spread by more than kMaxSpread between
// the best and the median.
std::string busy_reason(std::span<const TrialRound> rounds);

// What the cores can do at most: FMA units x FP32 lanes x 2 FLOPs x the measured clock x the
// threads (one per core).
struct FmaLimit {
    int units = 0, lanes = 0;
    double clock_hz = 0;
    int threads = 1;
    double flops_per_second() const { return 2.0 * units * lanes * clock_hz * threads; }
    // "2 FMA units x 16 lanes x 2 FLOP x 2.60 GHz (measured) x 2 threads"
    std::string describe() const;
};

// A measured FMA peak above the limit (by more than 10%: the clock is measured beside it, not
// during) means the limit's clock or unit count is wrong, or the measurement is; one below half
// of it did not keep the units busy (a busy host, a core's SMT sibling, a throttled clock).
// Why either cannot be trusted, or empty.
std::string fma_peak_check(double measured, const FmaLimit& limit);

// Ceilings measured at a run's start and again at its end differ by more than this share of
// the start's: the machine changed under the run (a neighbour's load, a clock, memory's state).
constexpr double kMaxCeilingMove = 0.10;

// Flags, in place, each ceiling of `start` whose namesake in `end` moved by more than
// kMaxCeilingMove ("moved from 30.1 GB/s to 22.0 GB/s between the run's start and end"); ceilings
// without a namesake are left alone. Returns the names flagged.
std::vector<std::string> flag_moved_ceilings(std::vector<Ceiling>& start, const std::vector<Ceiling>& end);

// Each ceiling of `have` that `again` measured higher takes the new figure, method and doubt:
// a roof is a limit, so the higher of two honest measurements is the nearer to it. Returns the
// names raised.
std::vector<std::string> raise_ceilings(std::vector<Ceiling>& have, const std::vector<Ceiling>& again);

// Two bandwidth ceilings in the wrong order: `inner` (the smaller level) is slower than `outer`.
struct HierarchyViolation {
    std::string inner, outer;
};

// Flags, in place, every bandwidth ceiling slower than a level outside it (l1 >= l2 >= llc >=
// dram, ordered by capacity, dram outermost) or faster than a level inside it; both sides of
// a violation are flagged since either may be the wrong one, each with the nearest level it
// contradicts (once, however often it is checked). Returns every violation.
std::vector<HierarchyViolation> flag_hierarchy_violations(std::vector<Ceiling>& ceilings);

}  // namespace memwall

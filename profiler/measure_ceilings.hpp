// Ceilings of the roofline, measured on the machine that runs the sweep (Empirical Roofline
// Toolkit method): bandwidth plateaus per cache level and DRAM, and the FP32 FMA peak.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "metrics/ceilings.hpp"
#include "metrics/memory_hierarchy.hpp"
#include "profiler/ceiling_kernels.hpp"

namespace memwall {

// One point of the bandwidth sweep: working set (all threads) and the best rate observed.
struct BandwidthSample {
    double working_set_bytes = 0;
    double bytes_per_second = 0;
    std::string unreliable;                          // why the point cannot be trusted (busy_reason); empty when it can
    BandwidthKernel kernel = BandwidthKernel::axpb;  // the kernel that moved the bytes
};

struct CeilingOptions {
    int threads = 0;                  // 0: the kernels' thread count (omp_get_max_threads())
    double min_working_set = 8e3;     // bytes, all threads together
    double max_working_set = 0;       // 0: 8x the last-level cache of all threads, at least 256 MiB
    double growth = 1.25;             // working-set growth factor between sweep points
    double seconds_per_point = 0.02;  // per working set and kernel; the FMA peak gets 10x
    // DRAM's working sets get this many times seconds_per_point: DRAM's rate wanders between
    // fast and slow states (refresh, pages, a neighbour's traffic) over longer spans than a
    // cache's, and a ceiling stable between runs needs the best over more of them.
    double dram_budget_factor = 5;
    // The vector ISA of the kernels: "avx2" or "avx512"; empty: the widest the host runs.
    std::string isa;
    // The ceilings to measure ("l2", "dram", "fp32_fma"): only the working sets of the levels
    // named, and the FMA peak if named; empty: all. A level is measured again this way when a
    // case ran above it.
    std::vector<std::string> levels;
    // Times a measurement found unreliable (busy, or contradicting the hierarchy) is measured
    // again before it is kept flagged.
    int retries = 2;
    // Called with a line saying what is measured again and why; may be empty.
    std::function<void(const std::string&)> note;
    // Called with progress in [0, 1]; may be empty.
    std::function<void(double)> progress;
};

struct CeilingMeasurement {
    Ceilings ceilings;
    std::vector<BandwidthSample> bandwidth_curve;  // for plots and diagnosis
    // The levels the sweep found no plateau for, each with why ("l1: no working set of the
    // sweep in its segment 0 B-72 KiB"): reported, never guessed.
    std::vector<std::string> not_found;
};

// Measures the bandwidth plateaus (each kernel of ceiling_kernels.hpp over growing working sets,
// per thread slices, best of doubling trial counts; nontemporal stores from the last cache level
// outwards, where they can win) and the vectorised FMA peak with all threads. Each
// thread times its own work and only rounds in which the threads ran together count, so other
// processes on the machine slow the measurement down more than they lower the figures. Working
// sets and the peak measured while the machine was busy (metrics/ceiling_trust.hpp), and the
// working sets of levels that contradict the hierarchy, are measured again up to
// `opt.retries` times, after the rest of the sweep so a passing load can end; what stays
// doubtful is flagged unreliable with the reason, never left out or stored as trusted.
// Throws std::invalid_argument on bad options.
CeilingMeasurement measure_cpu_ceilings(const MemoryHierarchy& mh, const CeilingOptions& opt = {});

// Assigns each cache level and DRAM the plateau of its segment of the curve, the best of the
// kernels' plateaus (the method names the kernel that set it): a kernel's is its best rate
// among working sets that fit the level (per-thread capacity x threads) but not the level
// inside it; DRAM from working sets at least 4x the last-level cache. Segments keep clear of
// the transitions (from 2x the inner level's capacity to 3/4 of the level's own), and each
// rate is first replaced by the median of it and its neighbours in the segment, so one stray
// sample cannot set the ceiling of a segment of three samples or more. A level with no sample
// in its segment is left out; one whose best kernel has a sample flagged unreliable in the
// segment is flagged too. Hierarchy violations are not checked here (flag_hierarchy_violations). Pure, so it is
// tested on recorded curves.
std::vector<Ceiling> bandwidth_plateaus(const std::vector<BandwidthSample>& curve, const MemoryHierarchy& mh,
                                        int threads);

// The levels (caches of `mh`, then dram) that `bandwidth_plateaus` of `curve` leaves out, each
// as "name: why" (the segment it needed a working set in).
std::vector<std::string> levels_not_found(const std::vector<BandwidthSample>& curve, const MemoryHierarchy& mh,
                                          int threads);

}  // namespace memwall

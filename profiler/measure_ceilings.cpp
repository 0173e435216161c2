#include "profiler/measure_ceilings.hpp"

#include <omp.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "metrics/ceiling_trust.hpp"

namespace memwall {

namespace {

using Clock = std::chrono::steady_clock;

std::string format_bytes(double b) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024 && u < 4) {
        b /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g %s", b, units[u]);
    return buf;
}

// Median of each rate and its two nearest neighbours (the first or last three at the ends),
// so a single stray sample cannot set a plateau; fewer than three rates are kept as they are.
std::vector<double> median3(const std::vector<double>& r) {
    if (r.size() < 3) return r;
    std::vector<double> out(r.size());
    for (std::size_t i = 0; i < r.size(); ++i) {
        std::size_t mid = std::clamp<std::size_t>(i, 1, r.size() - 2);
        double w[3] = {r[mid - 1], r[mid], r[mid + 1]};
        std::sort(w, w + 3);
        out[i] = w[1];
    }
    return out;
}

// The best smoothed rate of kernel `k` over working sets in (lo, hi] of a curve sorted by
// working set, with the method text saying so.
std::optional<Ceiling> plateau(const std::vector<BandwidthSample>& curve, BandwidthKernel k, double lo, double hi,
                               std::string name, double capacity, int threads) {
    std::vector<double> rates, sizes;
    std::string busy;  // the first doubtful sample's reason
    int doubtful = 0;
    for (const auto& s : curve) {
        if (s.kernel != k || s.working_set_bytes <= lo || s.working_set_bytes > hi) continue;
        rates.push_back(s.bytes_per_second);
        sizes.push_back(s.working_set_bytes);
        if (s.unreliable.empty()) continue;
        if (busy.empty()) busy = s.unreliable;
        ++doubtful;
    }
    if (rates.empty()) return std::nullopt;
    const auto smooth = median3(rates);
    const double best = *std::max_element(smooth.begin(), smooth.end());
    if (best <= 0) return std::nullopt;
    std::string method = std::string(describe(k)) + ", best over working sets " + format_bytes(sizes.front()) + "-" +
                         format_bytes(sizes.back()) + ", " + std::to_string(threads) + " threads";
    Ceiling c{std::move(name), CeilingKind::bandwidth, best, "B/s", std::move(method), capacity};
    if (doubtful > 0)
        c.unreliable =
            busy + " (" + std::to_string(doubtful) + " of " + std::to_string(rates.size()) + " working sets)";
    return c;
}

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// A measured rate and why it cannot be trusted (busy_reason of its rounds; empty when it can).
struct Timed {
    double rate = 0;
    std::string unreliable;
};

// A measurement taken again is kept when it can be trusted and the one before cannot, or,
// when they are alike, when it is faster (best of, as the rounds are).
bool better(const std::string& again_doubt, double again_rate, const std::string& kept_doubt, double kept_rate) {
    if (again_doubt.empty() != kept_doubt.empty()) return again_doubt.empty();
    return again_rate > kept_rate;
}

// Runs rounds of body(thread, reps) on all threads in one parallel region and returns the best
// of work_per_rep * reps / seconds, with the busy_reason of its rounds (each thread's CPU time
// beside its wall time, read outside the timed span so the rate is not disturbed). ERT
// schedule: reps double until a round lasts an eighth of the budget, then rounds repeat until
// the budget is spent (at least three rounds).
// Each thread times its own work, and a round counts only when the threads ran together
// (ran_together: they started within a tenth of the round of each other). Rounds go on (up to
// 8x the budget) until one counts; if none does, the best of the others, which understates, is
// returned.
template <class Body>
Timed best_rate(int threads, double budget, double work_per_rep, Body&& body) {
    std::vector<Clock::time_point> start(threads), end(threads);
    std::vector<double> cpu(threads), starts(threads), ends(threads);  // seconds from thread 0's start
    std::vector<TrialRound> rounds_seen;
    double best_together = 0, best_any = 0, spent = 0;
    long reps = 1;
    int rounds = 0;
    bool stop = false;
#pragma omp parallel num_threads(threads)
    {
        const int t = omp_get_thread_num();
        while (!stop) {
#pragma omp barrier
            const double cpu0 = thread_cpu_seconds();
            start[t] = Clock::now();
            body(t, reps);
            end[t] = Clock::now();
            cpu[t] = thread_cpu_seconds() - cpu0;
#pragma omp barrier
#pragma omp single
            {
                for (int i = 0; i < threads; ++i) {
                    starts[i] = std::chrono::duration<double>(start[i] - start[0]).count();
                    ends[i] = std::chrono::duration<double>(end[i] - start[0]).count();
                }
                const double span =
                    *std::max_element(ends.begin(), ends.end()) - *std::min_element(starts.begin(), starts.end());
                double longest = 0;
                TrialRound round{.reps = reps};
                for (int i = 0; i < threads; ++i) {
                    longest = std::max(longest, ends[i] - starts[i]);
                    round.cpu_seconds += cpu[i];
                    round.wall_seconds += ends[i] - starts[i];
                }
                spent += span;
                ++rounds;
                round.together = ran_together(starts, ends);
                if (span > 0) {
                    round.rate = work_per_rep * static_cast<double>(reps) / span;
                    best_any = std::max(best_any, round.rate);
                    if (round.together) best_together = std::max(best_together, round.rate);
                }
                rounds_seen.push_back(round);
                if ((rounds >= 3 && spent >= budget && best_together > 0) || spent >= 8 * budget)
                    stop = true;
                else if (longest < budget / 8)
                    reps *= 2;
            }  // the implicit barrier publishes stop and reps
        }
    }
    return {best_together > 0 ? best_together : best_any, busy_reason(rounds_seen)};
}

struct FreeDeleter {
    void operator()(float* p) const { std::free(p); }
};

// The cores' clock, Hz: on every thread at once, the best rate of dependent one-cycle additions
// over chunks of about 65 us (at 4 GHz), averaged over the threads. Chunks that short mostly run
// between a busy machine's preemptions, so the best of them is the clock even there; it is the
// clock the FMA peak ran at when measured beside it.
double measure_clock(int threads, double budget) {
    constexpr long kIters = 4096;
    std::vector<double> best(threads, 0.0);
#pragma omp parallel num_threads(threads)
    {
        const int t = omp_get_thread_num();
        const auto end = Clock::now() + std::chrono::duration<double>(budget);
        do {
            const auto t0 = Clock::now();
            long x = dependent_adds(kIters);
            const double s = std::chrono::duration<double>(Clock::now() - t0).count();
            asm volatile("" : : "r"(x));
            if (s > 0) best[t] = std::max(best[t], static_cast<double>(kIters * kClockChainLength) / s);
        } while (Clock::now() < end);
    }
    double sum = 0;
    for (double b : best) sum += b;
    return sum / threads;
}

std::string fixed(double v, int decimals) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// The FMA peak, measured again up to `retries` times while it cannot be trusted, then checked
// against the ISA's limit at the measured clock (fma_peak_check).
Ceiling measure_fma_peak(int threads, CeilingIsa isa, double budget, int retries,
                         const std::function<void(const std::string&)>& note) {
    constexpr long kItersPerRep = 1024;
    // a = a*0.5 + 0.5 converges to 1: no overflow, no denormals, and the compiler cannot know.
    volatile float b = 0.5f, c = 0.5f;
    auto measure = [&] {
        return best_rate(threads, budget, fma_flops_per_iteration(isa) * kItersPerRep * threads, [&](int, long reps) {
            float r = fma_chains(isa, reps * kItersPerRep, b, c);
            asm volatile("" : : "x"(r));  // keeps the chains live
        });
    };
    Timed best = measure();
    for (int pass = 1; pass <= retries && !best.unreliable.empty(); ++pass) {
        if (note)
            note("fp32_fma " + best.unreliable + "; measuring it again (" + std::to_string(pass) + " of " +
                 std::to_string(retries) + ")");
        Timed again = measure();
        if (better(again.unreliable, again.rate, best.unreliable, best.rate)) best = std::move(again);
    }
    std::string method = "FP32 FMA chains (" + std::string(to_string(isa)) + "), " + fma_chains_shape(isa) + ", " +
                         std::to_string(threads) + " threads, best of timed rounds";
    if (const int units = fma_units(isa); units > 0) {
        const FmaLimit limit{units, fma_lanes(isa), measure_clock(threads, budget / 2), threads};
        method += "; " + fixed(100 * best.rate / limit.flops_per_second(), 0) + "% of " + limit.describe();
        if (const std::string doubt = fma_peak_check(best.rate, limit); !doubt.empty())
            best.unreliable += (best.unreliable.empty() ? "" : "; ") + doubt;
    }
    return {"fp32_fma", CeilingKind::compute, best.rate, "FLOP/s", std::move(method), 0, std::move(best.unreliable)};
}

int team_size(int threads) {
    int team = 0;
#pragma omp parallel num_threads(threads)
    {
#pragma omp single
        team = omp_get_num_threads();
    }
    return team;
}

}  // namespace

namespace {

// The working sets (lo, hi] whose rates give each level's plateau: a cache level from twice
// the inner level's total to 3/4 of its own, DRAM from 4x the last level's total.
struct Segment {
    std::string name;
    double lo, hi, capacity;
};

std::vector<Segment> segments(const MemoryHierarchy& mh, int threads) {
    std::vector<Segment> out;
    double inner_total = 0;
    for (const auto& cache : mh.caches) {
        const double total = static_cast<double>(mh.per_thread_bytes(cache.name)) * threads;
        out.push_back({cache.name, 2 * inner_total, 0.75 * total, static_cast<double>(cache.bytes)});
        inner_total = total;
    }
    out.push_back({"dram", std::nextafter(4 * inner_total, 0.0), HUGE_VAL, 0});
    return out;
}

std::vector<BandwidthSample> sorted_by_size(std::vector<BandwidthSample> curve) {
    std::sort(curve.begin(), curve.end(),
              [](const auto& x, const auto& y) { return x.working_set_bytes < y.working_set_bytes; });
    return curve;
}

}  // namespace

std::vector<Ceiling> bandwidth_plateaus(const std::vector<BandwidthSample>& curve_in, const MemoryHierarchy& mh,
                                        int threads) {
    threads = std::max(threads, 1);
    const auto curve = sorted_by_size(curve_in);
    std::vector<Ceiling> out;
    for (const Segment& s : segments(mh, threads)) {
        std::optional<Ceiling> best;
        int kernels = 0;
        for (BandwidthKernel k : kAllBandwidthKernels) {
            auto c = plateau(curve, k, s.lo, s.hi, s.name, s.capacity, threads);
            if (!c) continue;
            ++kernels;
            if (!best || c->value > best->value) best = std::move(c);
        }
        if (!best) continue;
        if (kernels > 1) best->method += ", the best of " + std::to_string(kernels) + " kernels";
        out.push_back(std::move(*best));
    }
    return out;
}

std::vector<std::string> levels_not_found(const std::vector<BandwidthSample>& curve, const MemoryHierarchy& mh,
                                          int threads) {
    threads = std::max(threads, 1);
    const auto found = bandwidth_plateaus(curve, mh, threads);
    std::vector<std::string> out;
    for (const Segment& s : segments(mh, threads)) {
        if (std::any_of(found.begin(), found.end(), [&](const Ceiling& c) { return c.name == s.name; })) continue;
        const std::string upto = std::isinf(s.hi) ? "upwards" : "to " + format_bytes(s.hi);
        out.push_back(s.name + ": no working set of the sweep in its segment, " + format_bytes(std::max(s.lo, 0.0)) +
                      " (exclusive) " + upto);
    }
    return out;
}

CeilingMeasurement measure_cpu_ceilings(const MemoryHierarchy& mh, const CeilingOptions& opt) {
    if (opt.threads < 0 || !(opt.min_working_set > 0) || !(opt.growth > 1) || !(opt.seconds_per_point > 0) ||
        opt.max_working_set < 0 || opt.retries < 0 || !(opt.dram_budget_factor >= 1))
        throw std::invalid_argument(
            "ceiling options: need threads >= 0, min_working_set > 0, "
            "growth > 1, seconds_per_point > 0, retries >= 0, dram_budget_factor >= 1");
    const CeilingIsa isa = ceiling_isa(opt.isa);
    const int threads = opt.threads > 0 ? opt.threads : omp_get_max_threads();
    if (int team = team_size(threads); team != threads)
        throw std::runtime_error("ceilings: OpenMP gave " + std::to_string(team) + " threads of " +
                                 std::to_string(threads) + " requested");

    double max_ws = opt.max_working_set;
    if (max_ws == 0) {
        double llc = mh.caches.empty() ? 0.0 : static_cast<double>(mh.per_thread_bytes(mh.caches.back().name));
        max_ws = std::max(256.0 * (1 << 20), 8 * llc * threads);
    }
    if (!opt.levels.empty()) {
        // Nothing beyond the outermost level asked for (none at all for the FMA peak alone).
        double outermost = opt.min_working_set;
        for (const Segment& seg : segments(mh, threads))
            if (std::find(opt.levels.begin(), opt.levels.end(), seg.name) != opt.levels.end())
                outermost = std::max(outermost, std::isinf(seg.hi) ? max_ws : seg.hi);
        max_ws = std::min(max_ws, outermost);
    }
    max_ws = std::max(max_ws, opt.min_working_set);

    // Elements per thread, in whole 64-byte lines, one per sweep point.
    constexpr std::size_t kLine = 64 / sizeof(float);
    std::vector<std::size_t> sizes;
    for (double ws = opt.min_working_set; ws <= max_ws * (1 + 1e-9); ws *= opt.growth) {
        auto n = static_cast<std::size_t>(ws / (sizeof(float) * threads) / kLine + 0.5) * kLine;
        n = std::max(n, kLine);
        if (sizes.empty() || n != sizes.back()) sizes.push_back(n);
    }

    // One slice per thread, page-aligned, first touched by the thread that owns it.
    const std::size_t slice = (sizes.back() + 1023) / 1024 * 1024;
    const std::size_t total_bytes = slice * sizeof(float) * threads;
    std::unique_ptr<float, FreeDeleter> buf(static_cast<float*>(std::aligned_alloc(4096, total_bytes)));
    if (!buf) throw std::runtime_error("ceilings: cannot allocate " + format_bytes(static_cast<double>(total_bytes)));
#pragma omp parallel num_threads(threads)
    {
        float* mine = buf.get() + static_cast<std::size_t>(omp_get_thread_num()) * slice;
        std::fill(mine, mine + slice, 1.0f);
    }

    // Every kernel at every working set, but nontemporal stores only from the last cache level's
    // segment outwards: they bypass the caches, so inside them they only lose.
    const double llc_total =
        mh.caches.empty() ? 0.0 : static_cast<double>(mh.per_thread_bytes(mh.caches.back().name)) * threads;
    const double dram_from = 4 * llc_total;
    struct Point {
        BandwidthKernel kernel;
        std::size_t n;
    };
    auto wanted = [&](const std::string& level) {
        return opt.levels.empty() || std::find(opt.levels.begin(), opt.levels.end(), level) != opt.levels.end();
    };
    // A working set in the segment of a level asked for (all of them when none is named).
    auto asked = [&](double ws) {
        for (const Segment& seg : segments(mh, threads))
            if (ws > seg.lo && ws <= seg.hi && wanted(seg.name)) return true;
        return opt.levels.empty();
    };
    std::vector<Point> points;
    for (BandwidthKernel k : kAllBandwidthKernels) {
        for (std::size_t n : sizes) {
            const double ws = static_cast<double>(n * sizeof(float)) * threads;
            if ((k != BandwidthKernel::nt_store || ws > llc_total / 2) && asked(ws)) points.push_back({k, n});
        }
    }

    const double steps = static_cast<double>(points.size()) + 1;
    auto measure_point = [&](std::size_t i) {
        // Named, not a structured binding: clang 14 cannot capture one in a lambda.
        const BandwidthKernel kernel = points[i].kernel;
        const std::size_t n = points[i].n;
        const double ws = static_cast<double>(n * sizeof(float)) * threads;
        const double budget = opt.seconds_per_point * (ws >= dram_from ? opt.dram_budget_factor : 1.0);
        Timed t = best_rate(threads, budget, bytes_per_pass(kernel, n) * threads, [&](int thread, long reps) {
            float* mine = buf.get() + static_cast<std::size_t>(thread) * slice;
            for (long r = 0; r < reps; ++r) {
                float x = bandwidth_pass(kernel, isa, mine, n);
                // The results are never read: tell the compiler memory is observed.
                asm volatile("" : : "r"(mine), "x"(x) : "memory");
            }
        });
        return BandwidthSample{ws, t.rate, std::move(t.unreliable), kernel};
    };
    CeilingMeasurement m;
    auto& curve = m.bandwidth_curve;
    for (std::size_t i = 0; i < points.size(); ++i) {
        curve.push_back(measure_point(i));
        if (opt.progress) opt.progress(static_cast<double>(i + 1) / steps);
    }
    for (int pass = 1; pass <= opt.retries; ++pass) {
        const std::string of = " (" + std::to_string(pass) + " of " + std::to_string(opt.retries) + ")";
        std::vector<bool> again(curve.size(), false);
        std::size_t busy = 0;
        std::string busy_why;
        for (std::size_t i = 0; i < curve.size(); ++i) {
            if (curve[i].unreliable.empty()) continue;
            again[i] = true;
            if (busy++ == 0) busy_why = curve[i].unreliable;
        }
        if (busy > 0 && opt.note)
            opt.note(std::to_string(busy) + " of " + std::to_string(curve.size()) + " working sets " + busy_why +
                     "; measuring them again" + of);
        auto plateaus = bandwidth_plateaus(curve, mh, threads);
        for (const HierarchyViolation& v : flag_hierarchy_violations(plateaus)) {
            if (opt.note) opt.note(v.inner + " measured slower than " + v.outer + "; measuring both again" + of);
            for (const Segment& seg : segments(mh, threads)) {
                if (seg.name != v.inner && seg.name != v.outer) continue;
                for (std::size_t i = 0; i < curve.size(); ++i)
                    if (curve[i].working_set_bytes > seg.lo && curve[i].working_set_bytes <= seg.hi) again[i] = true;
            }
        }
        if (std::find(again.begin(), again.end(), true) == again.end()) break;
        for (std::size_t i = 0; i < curve.size(); ++i) {
            if (!again[i]) continue;
            BandwidthSample s = measure_point(i);
            if (better(s.unreliable, s.bytes_per_second, curve[i].unreliable, curve[i].bytes_per_second))
                curve[i] = std::move(s);
        }
    }
    buf.reset();

    m.ceilings.items = bandwidth_plateaus(curve, mh, threads);
    for (Ceiling& c : m.ceilings.items) c.method += " (" + std::string(to_string(isa)) + ")";
    flag_hierarchy_violations(m.ceilings.items);
    m.not_found = levels_not_found(curve, mh, threads);
    std::erase_if(m.not_found, [&](const std::string& line) { return !wanted(line.substr(0, line.find(':'))); });
    if (wanted("fp32_fma"))
        m.ceilings.items.push_back(measure_fma_peak(threads, isa, 10 * opt.seconds_per_point, opt.retries, opt.note));
    if (opt.progress) opt.progress(1.0);
    return m;
}

}  // namespace memwall

// The life of a run, written once for every command that measures (run, run --resume, ci,
// ci --baseline-build): begin (the run row with its provenance, the device properties, the
// ceilings), measure cases, finish. Commands keep argument parsing and printing only.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "gpu/device_ceilings.hpp"
#include "harness/runner.hpp"
#include "harness/sweep.hpp"
#include "metrics/memory_hierarchy.hpp"
#include "profiler/measure_ceilings.hpp"
#include "results/store.hpp"

namespace memwall {

// Who made a run or a tuning session: this host, memwall's revision and version, the command.
struct Provenance {
    std::string host, git_revision, memwall_version, command_line;
    static Provenance here(std::string command_line);
};

// "key=value" tags; throws UsageError naming a malformed one.
std::map<std::string, std::string> parse_tags(const std::vector<std::string>& tags);

// The run row of a sweep: provenance, backends, the device, the spec (for --resume), tags, and
// the axes of the families and variants of its cases.
// What a run of `backends` measures on, as its row names it: the CPU for cpu and cuda-emu (whose
// times are the CPU's), the GPU for cuda, both joined by " + " when a run has both ("" for a GPU
// that cannot be queried leaves it out). Runs on different GPUs thus read as different devices
// to `compare`, whatever their hosts' CPUs.
std::string run_device(const std::vector<Backend>& backends, const std::string& cpu, const std::string& gpu);

RunInfo run_info(const SweepSpec& spec, const std::vector<SweepPlan::Member>& members, const Provenance& who,
                 std::map<std::string, std::string> tags);

// Where a run's ceilings come from. reuse: the newest measured on this host, unless flagged
// unreliable (a copy names the run that measured them, never a copy's copy), measured when
// there are none; measure: now; none: no roofline.
enum class CeilingsMode { reuse, measure, none };
CeilingsMode ceilings_mode_from(const std::string& name);  // throws UsageError

// What --ceilings reuse finds for a run on this host: the run whose ceilings to copy, or none,
// and then, when only ceilings flagged unreliable are stored, the run that has them (they are
// measured again rather than reused: a reused figure would carry its doubt into every run).
struct ReuseChoice {
    std::optional<std::int64_t> from;
    std::optional<std::int64_t> unreliable_only;
};
ReuseChoice choose_ceilings_to_reuse(const Store& store, const std::string& host, std::int64_t run_id);

// Measures the CPU ceilings, with a progress line on stderr when `progress` and it is a
// terminal, and a line on stderr for each measurement taken again (busy machine, hierarchy
// violated); what stays doubtful is flagged in the ceilings. The levels not found are in the
// measurement's not_found.
// `options` chooses what and how long (its note and progress are set here).
CeilingMeasurement measure_ceilings_now(const MemoryHierarchy& mh, bool progress, CeilingOptions options = {});

// `have` with the ceilings of the cases' families that have their own (Family::ceilings) added,
// each replacing one of the same name; each such family is asked once, with its problems in the
// cases' order.
Ceilings with_family_ceilings(const Ceilings& have, const std::vector<PlannedCase>& cases);

// `have` with the ceilings of the CUDA device that `properties` (a run's device properties,
// describe_devices) describe, named "cuda:...": those `measured` on it when given, else the
// theoretical peaks of its properties (metrics/gpu_ceilings.hpp); the bf16 tensor-core roof, which
// memwall does not measure, is the theoretical one either way. `have`'s own "cuda:" ceilings, another
// run's device, are dropped. `have` alone when no CUDA device is described.
Ceilings with_device_ceilings(const Ceilings& have, const std::map<std::string, std::string>& properties,
                              const gpu::MeasuredDeviceCeilings* measured = nullptr);

struct SessionOptions {
    CeilingsMode ceilings = CeilingsMode::reuse;
    std::optional<Ceilings> given_ceilings;  // used as they are (a run measured beside another)
    bool progress = true;                    // progress lines on stderr, when it is a terminal
};

class RunSession {
  public:
    // A new run: its row, the device properties of `backends`, its ceilings: the host's (none
    // when every backend is cuda) and, with cuda, the device's (with_device_ceilings), measured
    // on it when it can be (a line on stderr says why not).
    static RunSession begin(Store& store, const RunInfo& info, const std::vector<Backend>& backends,
                            const SessionOptions& options);
    // An existing run, resumed: properties and ceilings added where missing.
    static RunSession resume(Store& store, std::int64_t run_id, const std::vector<Backend>& backends,
                             const SessionOptions& options);

    std::int64_t id() const { return id_; }
    const MemoryHierarchy& hierarchy() const { return mh_; }
    const Ceilings& ceilings() const { return ceilings_; }

    // Measures the cases the run lacks (run_cases) and commits each as it is measured; first, the
    // ceilings of the cases' families that have their own (Family::ceilings), unless the run's
    // ceilings are none or given. Then, unless they are none or given, the host's roofs that a
    // case beat are measured again (harness/roof_check.hpp): the higher figure is kept, and a
    // roof a case still beats is flagged, each with a line on stderr.
    RunnerResult measure(const SweepPlan& plan, const RunnerOptions& options, benchmark::BenchmarkReporter* display,
                         const BatchEdit& edit = {});
    // Ends the run. A complete run that measured its ceilings at its start measures them again
    // and flags those that moved by more than kMaxCeilingMove, with a line on stderr for each.
    void finish(RunStatus status);

  private:
    RunSession(Store& store, std::int64_t id, const std::vector<Backend>& backends, const SessionOptions& options);
    Store* store_;
    std::int64_t id_;
    MemoryHierarchy mh_;
    Ceilings ceilings_;
    // The ceilings are this run's to complete and check: neither none nor given.
    bool own_ceilings_ = true;
    // The host's ceilings were measured at this run's start (not reused, given or resumed).
    bool measured_here_ = false;
    bool progress_ = true;
    void check_roofs();
};

}  // namespace memwall

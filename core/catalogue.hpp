// The explicit catalogue of kernel families and their variants, and the interface a variant
// implements. Built-in kernels are added by register_builtin_kernels(); users add their own
// families or variants through the same Catalogue API, with no static-initialisation magic.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/axis.hpp"
#include "core/backend.hpp"
#include "core/params.hpp"
#include "core/space.hpp"
#include "metrics/ceilings.hpp"
#include "metrics/counter.hpp"
#include "metrics/memory_hierarchy.hpp"

namespace memwall {

// Family-specific inputs and reference for one problem point, built once and shared by every
// variant measured on that problem. Families derive from it.
class Workload {
  public:
    virtual ~Workload() = default;
};

// The family's own workload type of `w`; throws std::logic_error when a variant is prepared on
// the workload of another family (a catalogue mistake, not a user's).
template <class W>
const W& workload_as(const Workload& w) {
    const auto* typed = dynamic_cast<const W*>(&w);
    if (!typed) throw std::logic_error("a variant was prepared on the workload of another family");
    return *typed;
}

// Outcome of comparing a variant's output with the float64 reference.
struct Check {
    bool ok = false;
    double error = 0;      // relative L2 error over the checked elements
    double tolerance = 0;  // the bound it had to meet
    std::string message;   // why it failed (unwritten element, NaN, error > tolerance)
    // ok with nothing to compare against (a benchmark without a reference): the case is stored
    // `unchecked`, which compare, ci and tune refuse unless asked to allow it.
    bool unchecked = false;
};

// What Instance::profile collected, and why any part of it could not be (one line each).
struct Profile {
    std::vector<Counter> counters;
    std::vector<std::string> failures;
};

// One prepared case: inputs bound, outputs and workspace allocated.
class Instance {
  public:
    virtual ~Instance() = default;
    // Fills the outputs with a poison value, so elements a run fails to write are caught.
    virtual void poison() = 0;
    // One execution of the variant.
    virtual void run() = 0;
    // Compares the outputs of the last run with the workload's reference.
    virtual Check check() const = 0;
    // One timed execution in seconds. CPU: wall clock around run(); GPU backends override with
    // device events.
    virtual double run_timed();
    // Counters the backend measured during the last run (emu traffic, ...). Model counters
    // come from Variant::model instead.
    virtual std::vector<Counter> measured_counters() const { return {}; }
    // Counters summarising the timed runs, read after sampling: the median time of each phase
    // of a variant that times its phases (spgemm's symbolic and numeric).
    virtual std::vector<Counter> sampled_counters() const { return {}; }
    // The device's counters of one more run, collected by the backend's profiler (CUPTI's range
    // profiler on cuda) under their profiler names, `metrics`, and the GPU time of each kernel it
    // launches (kernel.<name>.seconds). Empty where the backend has none.
    virtual Profile profile(const std::vector<std::string>& metrics) {
        (void)metrics;
        return {};
    }
    // What the variant chose for this case that a reader needs to trust its time (a library's
    // implementation and ISA, a layout reorder): stored in the case's message. Empty: nothing.
    virtual std::string detail() const { return {}; }
};

struct Variant {
    std::string name;
    std::string description;
    Backend backend = Backend::cpu;
    // Problem axes of this variant alone, after the family's: what only it computes (a sparse
    // variant's mask). Its problems differ from the other variants' by them, so they never share
    // a workload.
    std::vector<Axis> problem_axes;
    std::vector<Axis> tunables;           // role tunable
    std::vector<Constraint> constraints;  // over the whole point (problem + tunables)
    // Non-empty when the variant cannot run in emulation (tensor cores, cp.async, TMA, PTX).
    std::string gpu_only_reason;
    // Overrides of the family's problem-axis defaults for this variant ("name=values"), applied
    // before the user's: e.g. problems sized for emulation, or seq_q=1 for a decode kernel.
    std::vector<std::string> default_axes;
    // Builds an instance for the point (problem + config) on the family's workload.
    std::function<std::unique_ptr<Instance>(const Workload&, const Params& point)> prepare;
    // Analytic FLOP and byte model: counters flops, bytes.min, bytes.<level>, workspace.bytes.
    std::function<std::vector<Counter>(const Params& point, const MemoryHierarchy&)> model;
    // Instead of `model`, for a family whose counts follow from its inputs rather than from
    // the point alone (spgemm's products depend on the matrix).
    std::function<std::vector<Counter>(const Workload&, const Params& point, const MemoryHierarchy&)> input_model;
    // No reference checks the output (a benchmark declared without one): its cases are stored
    // unchecked, and tune refuses the variant unless allowed.
    bool unchecked = false;
};

struct Family {
    std::string name;
    std::string description;
    std::vector<Axis> problem_axes;                // role problem
    std::vector<std::vector<std::string>> zipped;  // default tied axes
    std::vector<Constraint> constraints;           // over the problem
    // Named values of a string axis that set other problem axes (layer=conv8: C, H, W, ...).
    std::vector<Preset> presets;
    // Rejects a malformed problem (UsageError, one line) before anything is built for it.
    Validator validate;
    // Random inputs (never zeros) and the float64 reference for a problem point.
    std::function<std::unique_ptr<Workload>(const Params& problem, std::uint64_t seed)> make_workload;
    std::vector<Variant> variants;
    // Ceilings of memory only this family's cases use (kv_offload's slow tier), measured by a run
    // before the family's cases: given the run's ceilings so far and the family's problems in the
    // run, those to add (replacing any of the same name); empty when `have` already suits. May be
    // empty.
    std::function<std::vector<Ceiling>(const Ceilings& have, const std::vector<Params>& problems)> ceilings;

    const Variant* find(const std::string& variant, Backend b) const;
    // The space of one variant: the family's problem axes and the variant's own, its tunables,
    // both sets of constraints, the default zips, the presets and the validator.
    Space space(const Variant& v) const;
};

class Catalogue {
  public:
    // Throw std::logic_error, at registration, on a duplicate family or variant (name and
    // backend) and on a variant with neither model nor input_model; add_family checks the
    // variants it is given as add_variant does.
    Family& add_family(Family f);
    void add_variant(const std::string& family, Variant v);
    const std::vector<Family>& families() const { return families_; }
    // Throw UsageError naming the known alternatives.
    const Family& family(const std::string& name) const;
    const Variant& variant(const std::string& family, const std::string& variant, Backend b) const;

  private:
    std::vector<Family> families_;
};

}  // namespace memwall

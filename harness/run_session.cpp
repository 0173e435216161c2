#include "harness/run_session.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include <nlohmann/json.hpp>

#include "core/bytes.hpp"
#include "core/errors.hpp"
#include "core/machine.hpp"
#include "gpu/device_properties.hpp"
#include "harness/device_description.hpp"
#include "harness/roof_check.hpp"
#include "harness/slurm_ids.hpp"
#include "metrics/ceiling_trust.hpp"
#include "metrics/gpu_ceilings.hpp"

namespace memwall {

Provenance Provenance::here(std::string command_line) {
    return {host_name(), memwall_git_revision(), ::memwall::memwall_version(), std::move(command_line)};
}

std::map<std::string, std::string> parse_tags(const std::vector<std::string>& tags) {
    std::map<std::string, std::string> out;
    for (const auto& t : tags) {
        const auto eq = t.find('=');
        if (eq == std::string::npos || eq == 0) throw UsageError("--tag '" + t + "': expected key=value");
        out[t.substr(0, eq)] = t.substr(eq + 1);
    }
    return out;
}

namespace {

// Whether any backend runs on the host: cpu, and cuda-emu, whose times are the CPU's.
bool has_host_backend(const std::vector<Backend>& backends) {
    return std::any_of(backends.begin(), backends.end(), [](Backend b) { return b != Backend::cuda; });
}

}  // namespace

std::string run_device(const std::vector<Backend>& backends, const std::string& cpu, const std::string& gpu) {
    const bool host = backends.empty() || has_host_backend(backends);
    const bool device = !gpu.empty() && std::find(backends.begin(), backends.end(), Backend::cuda) != backends.end();
    if (!device) return cpu;
    return host ? cpu + " + " + gpu : gpu;
}

RunInfo run_info(const SweepSpec& spec, const std::vector<SweepPlan::Member>& members, const Provenance& who,
                 std::map<std::string, std::string> tags) {
    RunInfo info;
    info.host = who.host;
    for (Backend b : spec.backends) info.backend += (info.backend.empty() ? "" : ",") + std::string(to_string(b));
    const bool cuda = std::find(spec.backends.begin(), spec.backends.end(), Backend::cuda) != spec.backends.end();
    const auto gpu = cuda ? gpu::cuda_device_properties(0) : std::nullopt;
    info.device = run_device(spec.backends, cpu_description(), gpu ? gpu->name : "");
    info.git_revision = who.git_revision;
    info.command_line = who.command_line;
    info.memwall_version = who.memwall_version;
    info.sweep = spec.to_json().dump();
    info.tags = std::move(tags);
    for (auto& [key, value] : slurm_ids()) info.tags.emplace(key, value);  // a --tag of the same key wins
    std::set<std::pair<std::string, std::string>> seen;
    auto add = [&](const std::string& family, const Axis& a, AxisRole role) {
        if (seen.emplace(family, a.name).second)
            info.axes.push_back({family, a.name, a.kind, role, a.description, a.choices});
    };
    for (const SweepPlan::Member& m : members) {
        for (const Axis& a : m.family->problem_axes) add(m.family->name, a, AxisRole::problem);
        for (const Axis& a : m.variant->problem_axes) add(m.family->name, a, AxisRole::problem);
        for (const Axis& a : m.variant->tunables) add(m.family->name, a, AxisRole::tunable);
    }
    return info;
}

CeilingsMode ceilings_mode_from(const std::string& name) {
    if (name == "reuse") return CeilingsMode::reuse;
    if (name == "measure") return CeilingsMode::measure;
    if (name == "none") return CeilingsMode::none;
    throw UsageError("--ceilings '" + name + "': expected reuse, measure or none");
}

ReuseChoice choose_ceilings_to_reuse(const Store& store, const std::string& host, std::int64_t run_id) {
    auto other = [run_id](std::optional<std::int64_t> id) { return id && *id != run_id ? id : std::nullopt; };
    if (auto from = other(store.latest_measured_ceilings_run(host, "cpu", true))) return {from, std::nullopt};
    return {std::nullopt, other(store.latest_measured_ceilings_run(host, "cpu", false))};
}

CeilingMeasurement measure_ceilings_now(const MemoryHierarchy& mh, bool progress, CeilingOptions opt) {
    const bool line = progress && isatty(STDERR_FILENO);
    if (line) {
        opt.progress = [](double f) {
            std::fprintf(stderr, "\r\033[Kmeasuring ceilings %3.0f%%", f * 100);
            std::fflush(stderr);
        };
    }
    opt.note = [line](const std::string& what) {
        std::fprintf(stderr, "%smemwall: ceilings: %s\n", line ? "\r\033[K" : "", what.c_str());
    };
    CeilingMeasurement m = measure_cpu_ceilings(mh, opt);
    if (opt.progress) std::fputs("\r\033[K", stderr);
    return m;
}

Ceilings with_family_ceilings(const Ceilings& have, const std::vector<PlannedCase>& cases) {
    std::vector<std::pair<const Family*, std::vector<Params>>> problems;  // in the cases' order
    for (const PlannedCase& c : cases) {
        if (!c.family->ceilings) continue;
        auto it = std::find_if(problems.begin(), problems.end(), [&](const auto& f) { return f.first == c.family; });
        if (it == problems.end()) it = problems.insert(problems.end(), {c.family, {}});
        it->second.push_back(c.problem);
    }
    Ceilings out = have;
    for (const auto& [family, ps] : problems)
        for (Ceiling& x : family->ceilings(out, ps)) {
            const auto same =
                std::find_if(out.items.begin(), out.items.end(), [&](const Ceiling& c) { return c.name == x.name; });
            if (same != out.items.end())
                *same = std::move(x);
            else
                out.items.push_back(std::move(x));
        }
    return out;
}

namespace {

double number(const std::map<std::string, std::string>& p, const std::string& key) {
    const auto it = p.find(key);
    if (it == p.end()) return 0;
    try {
        return std::stod(it->second);
    } catch (const std::exception&) {
        return 0;
    }
}

// The measured figures as ceilings, each saying how it was measured.
std::vector<Ceiling> measured_ceilings(const gpu::MeasuredDeviceCeilings& m) {
    const std::string prefix(kCudaCeilingPrefix);
    const std::string kernel = std::to_string(m.blocks) + " blocks of " + std::to_string(m.threads) +
                               " threads, best of " + std::to_string(m.launches) + " launches";
    std::vector<Ceiling> out;
    auto bandwidth = [&](const char* level, double rate, double set, double capacity, const char* how) {
        if (rate > 0)
            out.push_back({prefix + level, CeilingKind::bandwidth, rate, "B/s",
                           std::string("measured on the device: float4 reads ") + how + " over " + format_bytes(set) +
                               ", " + kernel,
                           capacity});
    };
    bandwidth("l1", m.l1, m.l1_working_set, m.l1_capacity, "through L1 (__ldg)");
    bandwidth("l2", m.l2, m.l2_working_set, m.l2_capacity, "cached in L2 only (__ldcg)");
    bandwidth("dram", m.dram, m.dram_working_set, 0, "cached in L2 only (__ldcg), 4x L2");
    if (m.fp32_fma > 0)
        out.push_back({prefix + "fp32_fma", CeilingKind::compute, m.fp32_fma, "FLOP/s",
                       "measured on the device: 8 independent FMA chains per thread, 8 blocks of " +
                           std::to_string(m.threads) + " threads per SM, best of " + std::to_string(m.launches) +
                           " launches"});
    return out;
}

}  // namespace

Ceilings with_device_ceilings(const Ceilings& have, const std::map<std::string, std::string>& properties,
                              const gpu::MeasuredDeviceCeilings* measured) {
    Ceilings out = have.for_backend("cpu");
    const auto name = properties.find("cuda.name");
    if (name == properties.end()) return out;
    GpuFigures d;
    d.name = name->second;
    d.compute_capability = static_cast<int>(10 * number(properties, "cuda.compute_capability") + 0.5);  // "9.0"
    d.sms = static_cast<int>(number(properties, "cuda.sms"));
    d.sm_clock_hz = number(properties, "cuda.sm_clock_hz");
    d.memory_bandwidth = number(properties, "cuda.memory_bandwidth_bytes_per_s");
    std::vector<Ceiling> roofs = measured ? measured_ceilings(*measured) : std::vector<Ceiling>{};
    // The roofs memwall has no kernel to measure (the tensor cores') stay the theoretical ones; a
    // roof whose measurement failed is left out, not guessed.
    for (Ceiling& c : theoretical_gpu_ceilings(d))
        if (!measured || c.name == std::string(kCudaCeilingPrefix) + "bf16_tensor" ||
            c.name == std::string(kCudaCeilingPrefix) + "tf32_tensor")
            roofs.push_back(std::move(c));
    for (Ceiling& c : roofs) out.items.push_back(std::move(c));
    return out;
}

namespace {

Ceilings ceilings_for_run(const Store& store, std::int64_t run_id, const SessionOptions& options,
                          const MemoryHierarchy& mh) {
    if (options.given_ceilings) return *options.given_ceilings;
    if (options.ceilings == CeilingsMode::none) return {};
    if (options.ceilings == CeilingsMode::reuse) {
        const ReuseChoice choice = choose_ceilings_to_reuse(store, host_name(), run_id);
        if (choice.from) {
            Ceilings c = store.ceilings(*choice.from).for_backend("cpu");  // its device's are its own
            c.reused_from_run = *choice.from;
            return c;
        }
        if (choice.unreliable_only)
            std::fprintf(stderr,
                         "memwall: the ceilings stored for this host (run %lld) are flagged unreliable; measuring "
                         "them again\n",
                         static_cast<long long>(*choice.unreliable_only));
    }
    const CeilingMeasurement m = measure_ceilings_now(mh, options.progress);
    for (const auto& level : m.not_found) std::fprintf(stderr, "memwall: ceiling not found: %s\n", level.c_str());
    return m.ceilings;
}

}  // namespace

RunSession::RunSession(Store& store, std::int64_t id, const std::vector<Backend>& backends,
                       const SessionOptions& options)
    : store_(&store),
      id_(id),
      mh_(detect_memory_hierarchy()),
      own_ceilings_(options.ceilings != CeilingsMode::none && !options.given_ceilings),
      progress_(options.progress) {
    if (store.run_properties(id).empty()) store.set_run_properties(id, describe_devices(backends, mh_));
    ceilings_ = store.ceilings(id);
    if (ceilings_.empty()) {
        // The host's roofs serve cpu and cuda-emu cases; a run of cuda cases alone needs none.
        if (has_host_backend(backends) || options.given_ceilings) {
            ceilings_ = ceilings_for_run(store, id, options, mh_);
            measured_here_ = own_ceilings_ && !ceilings_.empty() && ceilings_.reused_from_run == 0;
        }
        if (options.ceilings != CeilingsMode::none && !options.given_ceilings) {
            const auto properties = store.run_properties(id);
            std::optional<gpu::MeasuredDeviceCeilings> measured;
            if (properties.count("cuda.name")) {
                std::string why;
                measured = gpu::measure_device_ceilings(&why);
                if (!measured)
                    std::fprintf(stderr,
                                 "memwall: the GPU's ceilings were not measured (%s): its theoretical peaks "
                                 "are used\n",
                                 why.c_str());
            }
            ceilings_ = with_device_ceilings(ceilings_, properties, measured ? &*measured : nullptr);
        }
        if (!ceilings_.empty()) store.save_ceilings(id, ceilings_);
    }
}

RunSession RunSession::begin(Store& store, const RunInfo& info, const std::vector<Backend>& backends,
                             const SessionOptions& options) {
    return RunSession(store, store.begin_run(info), backends, options);
}

RunSession RunSession::resume(Store& store, std::int64_t run_id, const std::vector<Backend>& backends,
                              const SessionOptions& options) {
    store.claim_run(run_id);
    // A requeued Slurm task's ids replace its first attempt's.
    for (const auto& [key, value] : slurm_ids()) store.set_tag(run_id, key, value);
    return RunSession(store, run_id, backends, options);
}

namespace {

// The plan's cases of families with ceilings of their own, in its order; none without a pass
// when it has no such family.
std::vector<PlannedCase> cases_with_own_ceilings(const SweepPlan& plan) {
    std::vector<PlannedCase> out;
    const auto& members = plan.members();
    if (std::none_of(members.begin(), members.end(), [](const auto& m) { return bool(m.family->ceilings); }))
        return out;
    SweepPlan::Pass pass = plan.pass();
    for (auto batch = pass.next(); !batch.empty(); batch = pass.next())
        for (PlannedCase& c : batch)
            if (c.family->ceilings) out.push_back(std::move(c));
    return out;
}

}  // namespace

RunnerResult RunSession::measure(const SweepPlan& plan, const RunnerOptions& options,
                                 benchmark::BenchmarkReporter* display, const BatchEdit& edit) {
    if (own_ceilings_) {
        Ceilings all = with_family_ceilings(ceilings_, cases_with_own_ceilings(plan));
        if (all.items.size() != ceilings_.items.size() ||
            !std::equal(all.items.begin(), all.items.end(), ceilings_.items.begin(),
                        [](const Ceiling& a, const Ceiling& b) {
                            return a.name == b.name && a.value == b.value && a.method == b.method;
                        })) {
            store_->save_ceilings(id_, all);
            ceilings_ = std::move(all);
        }
    }
    RunnerResult r = run_cases(*store_, id_, plan, mh_, options, display, edit);
    if (own_ceilings_ && !r.interrupted) check_roofs();
    return r;
}

namespace {

// The host's ceilings measure_cpu_ceilings measures: the cache levels, dram, fp32_fma.
std::vector<std::string> host_roofs(const MemoryHierarchy& mh) {
    std::vector<std::string> out;
    for (const CacheLevel& c : mh.caches) out.push_back(c.name);
    out.push_back("dram");
    out.push_back("fp32_fma");
    return out;
}

}  // namespace

void RunSession::check_roofs() {
    const std::vector<std::string> roofs = host_roofs(mh_);
    const auto cases = store_->cases(id_, false);
    std::vector<RoofExcess> excess = cases_above_roofs(cases, ceilings_, roofs);
    if (excess.empty()) return;
    for (const RoofExcess& e : excess)
        std::fprintf(stderr, "memwall: %s ran at %.0f%% of the %s roof (bytes or FLOPs from %s): the roof is wrong\n",
                     e.label.c_str(), e.percent, e.ceiling.c_str(), e.source.c_str());
    CeilingOptions opt;
    opt.levels = roofs_beaten(excess);
    opt.seconds_per_point *= 5;  // longer than at the start: the roof is in doubt
    std::string names;
    for (const std::string& l : opt.levels) names += (names.empty() ? "" : ", ") + l;
    std::fprintf(stderr, "memwall: measuring %s again\n", names.c_str());
    const CeilingMeasurement again = measure_ceilings_now(mh_, progress_, opt);
    if (!raise_ceilings(ceilings_.items, again.ceilings.items).empty()) ceilings_.reused_from_run = 0;
    excess = cases_above_roofs(cases, ceilings_, roofs);
    flag_beaten_roofs(ceilings_.items, excess);
    for (const std::string& l : roofs_beaten(excess))
        std::fprintf(stderr, "memwall: a case still ran above the %s roof measured again: flagged unreliable\n",
                     l.c_str());
    store_->save_ceilings(id_, ceilings_);
}

void RunSession::finish(RunStatus status) {
    if (status == RunStatus::complete && measured_here_) {
        std::fprintf(stderr, "memwall: measuring the ceilings again to see whether they moved during the run\n");
        const CeilingMeasurement end = measure_ceilings_now(mh_, progress_);
        const std::vector<std::string> moved = flag_moved_ceilings(ceilings_.items, end.ceilings.items);
        for (const std::string& name : moved)
            std::fprintf(stderr, "memwall: the %s ceiling moved during the run: flagged unreliable\n", name.c_str());
        if (!moved.empty()) store_->save_ceilings(id_, ceilings_);
    }
    store_->finish_run(id_, status);
}

}  // namespace memwall

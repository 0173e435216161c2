#include "results/compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/errors.hpp"
#include "metrics/roofline.hpp"
#include "stats/mann_whitney.hpp"
#include "stats/signed_rank.hpp"

namespace memwall {

std::string_view to_string(Verdict v) {
    switch (v) {
        case Verdict::same: return "SAME";
        case Verdict::faster: return "FASTER";
        case Verdict::slower: return "SLOWER";
        case Verdict::unsure: return "UNSURE";
        case Verdict::failed: return "FAILED";
    }
    return "?";
}

void CompareOptions::validate() const {
    if (!(threshold > 0 && threshold < 1)) throw UsageError("--threshold must be in (0, 1), e.g. 0.05 for 5%");
    if (!(alpha > 0 && alpha < 0.5)) throw UsageError("--alpha must be in (0, 0.5), e.g. 0.05");
    if (min_samples < 1) throw UsageError("the minimum number of samples must be >= 1");
    if (resamples < 100) throw UsageError("the bootstrap needs at least 100 resamples");
}

std::string format_change(double ratio) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", (ratio - 1) * 100);
    return buf;
}

std::string confidence_label(double alpha) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g%% CI", (1 - alpha) * 100);
    return buf;
}

std::string format_p_value(double p) {
    if (p < 1e-6) return "<1e-06";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2g", p);
    return buf;
}

namespace {

std::string percent_text(double fraction) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g%%", fraction * 100);
    return buf;
}

std::size_t sample_count(const Repetitions& r) {
    std::size_t n = 0;
    for (const auto& rep : r) n += rep.size();
    return n;
}

std::size_t repetition_count(const Repetitions& r) {
    return static_cast<std::size_t>(std::count_if(r.begin(), r.end(), [](const auto& x) { return !x.empty(); }));
}

std::vector<double> repetition_medians(const Repetitions& r) {
    std::vector<double> out;
    for (const auto& rep : r)
        if (!rep.empty()) out.push_back(pooled_median({rep}));
    return out;
}

// FNV-1a over the key, so each case's bootstrap stream does not depend on the others.
std::uint64_t key_hash(const CaseKey& k) {
    std::uint64_t h = 1469598103934665603ull;
    for (const std::string* s : {&k.family, &k.variant, &k.backend, &k.problem, &k.config}) {
        for (unsigned char ch : *s) h = (h ^ ch) * 1099511628211ull;
        h = (h ^ 0xff) * 1099511628211ull;  // separator
    }
    return h;
}

}  // namespace

Decision decide(Interval ci, double p, const CompareOptions& opt) {
    const double up = 1 + opt.threshold, down = 1 / up;
    const std::string band = "the ±" + percent_text(opt.threshold) + " band";
    const std::string conf = confidence_label(opt.alpha);
    if (ci.lo >= down && ci.hi <= up) return {Verdict::same, conf + " within " + band};
    const bool beyond = ci.lo > up || ci.hi < down;
    if (!beyond) return {Verdict::unsure, conf + " reaches into " + band};
    if (!(p < opt.alpha))
        return {Verdict::unsure, "not significant: p = " + format_p_value(p) + " >= " + format_p_value(opt.alpha)};
    return {ci.lo > up ? Verdict::slower : Verdict::faster, conf + " beyond " + band + ", p = " + format_p_value(p)};
}

CaseComparison compare_timings(const Repetitions& base, const Repetitions& candidate, const CompareOptions& opt,
                               std::uint64_t seed, bool paired) {
    CaseComparison c;
    c.base.n = sample_count(base);
    c.candidate.n = sample_count(candidate);
    c.base.repetitions = repetition_count(base);
    c.candidate.repetitions = repetition_count(candidate);
    c.base.median = pooled_median(base);
    c.candidate.median = pooled_median(candidate);
    if (c.base.n < opt.min_samples || c.candidate.n < opt.min_samples) {
        c.reason = "too few samples: " + std::to_string(c.base.n) + " in base, " + std::to_string(c.candidate.n) +
                   " in candidate (" + std::to_string(opt.min_samples) + " needed)";
        return c;
    }
    if (!(c.base.median > 0) || !(c.candidate.median > 0)) {
        c.reason = "a median is not positive";
        return c;
    }
    c.ratio = c.candidate.median / c.base.median;
    const bool by_repetition =
        c.base.repetitions >= opt.min_repetitions && c.candidate.repetitions >= opt.min_repetitions;
    const bool by_pair = paired && by_repetition && c.base.repetitions == base.size() &&
                         c.candidate.repetitions == candidate.size() && base.size() == candidate.size();
    RatioInterval ri = by_pair ? bootstrap_ratio_paired(base, candidate, 1 - opt.alpha, opt.resamples, seed)
                               : bootstrap_ratio(base, candidate, 1 - opt.alpha, opt.resamples, seed);
    c.ci = ri.ci;
    c.replicates = std::move(ri.replicates);
    if (by_pair) {
        const std::vector<double> mb = repetition_medians(base), mc = repetition_medians(candidate);
        std::vector<double> log_ratios;
        for (std::size_t r = 0; r < mb.size(); ++r) log_ratios.push_back(std::log(mc[r] / mb[r]));
        c.basis = "paired repetitions";
        c.p_value = signed_rank(log_ratios).p;
    } else {
        c.basis = by_repetition ? "repetitions" : "samples";
        c.p_value = by_repetition ? mann_whitney(repetition_medians(candidate), repetition_medians(base)).p
                                  : mann_whitney(pooled_samples(candidate), pooled_samples(base)).p;
    }
    const Decision d = decide(c.ci, c.p_value, opt);
    c.verdict = d.verdict;
    c.reason = d.reason;
    return c;
}

LoadedRun load_run(const Store& store, std::int64_t run_id) {
    auto info = store.run(run_id);
    if (!info) throw InputError("no run " + std::to_string(run_id) + " in " + store.path());
    return {*info, store.path(), store.ceilings(run_id), store.cases(run_id, true)};
}

std::size_t Comparison::count(Verdict v) const {
    return static_cast<std::size_t>(
        std::count_if(cases.begin(), cases.end(), [v](const auto& c) { return c.verdict == v; }));
}

bool Comparison::regression() const { return count(Verdict::slower) > 0 || count(Verdict::failed) > 0; }

namespace {

RunSide side_of(const LoadedRun& r) {
    return {r.info.id,     r.database,     r.info.started_at,   r.info.host,
            r.info.device, r.info.backend, r.info.git_revision, r.info.tags};
}

std::string run_name(const LoadedRun& r) { return "run " + std::to_string(r.info.id) + " of " + r.database; }

bool single_backend(const std::string& b) { return !b.empty() && b.find(',') == std::string::npos; }

// Time x attainable / FLOPs (time / the bound's minimum time, for a kernel without FLOPs): the
// inverse of the fraction of the bounding roof the case reaches (lower is better, like a time).
// 0 when the run's ceilings or the case's counters are missing.
double roof_scale(const CaseRecord& c, const Ceilings& ceilings) {
    const RooflinePoint p = place_on_roofline(c.counters, c.summary.median, ceilings.for_backend(c.key.backend));
    if (!p.valid) return 0;
    if (p.flops > 0) return p.attainable > 0 ? p.attainable / p.flops : 0;
    return p.roof_seconds > 0 ? 1 / p.roof_seconds : 0;
}

Repetitions scaled(Repetitions r, double k) {
    for (auto& rep : r)
        for (double& x : rep) x *= k;
    return r;
}

bool paired(const LoadedRun& a, const LoadedRun& b) {
    auto names = [](const LoadedRun& x, const LoadedRun& y) {
        auto it = x.info.tags.find("paired_with");
        return it != x.info.tags.end() && it->second == std::to_string(y.info.id);
    };
    return a.database == b.database && (names(a, b) || names(b, a));
}

bool timed(const CaseRecord& c) { return ran(c.status) && !c.samples.empty(); }

CaseComparison compare_case(const CaseRecord& b, const CaseRecord& c, const LoadedRun& base, const LoadedRun& cand,
                            bool normalised, bool paired, const CompareOptions& opt) {
    CaseComparison out;
    const std::uint64_t seed = opt.seed * 0x9e3779b97f4a7c15ull ^ key_hash(c.key);
    if (timed(b) && timed(c)) {
        if (normalised) {
            const double kb = roof_scale(b, base.ceilings), kc = roof_scale(c, cand.ceilings);
            if (kb > 0 && kc > 0) {
                out = compare_timings(scaled(b.samples, kb), scaled(c.samples, kc), opt, seed, paired);
                out.base.percent_of_roof = 100 / out.base.median;
                out.candidate.percent_of_roof = 100 / out.candidate.median;
                out.base.median = pooled_median(b.samples);
                out.candidate.median = pooled_median(c.samples);
            } else {
                out = compare_timings(b.samples, c.samples, opt, seed);
                out.verdict = Verdict::unsure;
                out.reason = std::string("cannot normalise: no roofline for the ") + (kb > 0 ? "candidate" : "base") +
                             " run (ceilings or FLOP/byte counters missing)";
                out.ci = {};
                out.p_value = 1;
                out.basis.clear();
                out.replicates.clear();
            }
        } else {
            out = compare_timings(b.samples, c.samples, opt, seed, paired);
        }
        // Times of a busy host measured the other processes as much as the case: no verdict
        // beyond UNSURE rests on them.
        if (b.host_busy() || c.host_busy()) {
            out.verdict = Verdict::unsure;
            out.reason = std::string(b.host_busy() ? "base" : "candidate") +
                         " measured while the host was busy (too few samples whose threads could run)";
        }
    } else {
        out.base = {b.status, "", b.summary.median, b.summary.n, b.samples.size(), 0};
        out.candidate = {c.status, "", c.summary.median, c.summary.n, c.samples.size(), 0};
        if (timed(b) && !ran(c.status)) {
            out.verdict = Verdict::failed;
            out.reason = "candidate " + std::string(to_string(c.status)) + (c.message.empty() ? "" : ": " + c.message);
        } else if (!timed(b) && !timed(c)) {
            out.reason = "not timed in either run (base " + std::string(to_string(b.status)) + ", candidate " +
                         std::string(to_string(c.status)) + ")";
        } else if (!timed(b)) {
            out.reason = "base " + std::string(to_string(b.status)) + ": nothing to compare with";
        } else {
            out.reason = "candidate has no samples";
        }
    }
    out.base.status = b.status;
    out.candidate.status = c.status;
    if (!ran(b.status)) out.base.message = b.message;
    if (!ran(c.status)) out.candidate.message = c.message;
    out.key = c.key;
    return out;
}

GeometricMean geometric_mean(const std::vector<CaseComparison>& cases, double alpha) {
    GeometricMean g;
    std::vector<const CaseComparison*> with;
    for (const auto& c : cases)
        if (!c.replicates.empty()) with.push_back(&c);
    if (with.empty()) return g;
    const std::size_t reps = with.front()->replicates.size();
    double sum = 0;
    for (const auto* c : with) sum += std::log(c->ratio);
    std::vector<double> means(reps, 0.0);
    for (const auto* c : with)
        for (std::size_t i = 0; i < reps; ++i) means[i] += std::log(c->replicates[i]);
    const auto n = static_cast<double>(with.size());
    for (double& m : means) m = std::exp(m / n);
    std::sort(means.begin(), means.end());
    g.cases = with.size();
    g.ratio = std::exp(sum / n);
    g.ci = {quantile_sorted(means, alpha / 2), quantile_sorted(means, 1 - alpha / 2)};
    return g;
}

}  // namespace

Comparison compare_runs(const LoadedRun& base, const LoadedRun& candidate, const CompareOptions& options) {
    options.validate();
    Comparison cmp;
    cmp.base = side_of(base);
    cmp.candidate = side_of(candidate);
    cmp.options = options;

    const bool other_device = base.info.device != candidate.info.device;
    const bool other_backend = base.info.backend != candidate.info.backend;
    if (other_device || other_backend) {
        const std::string what = other_device
                                     ? "devices (" + base.info.device + " vs " + candidate.info.device + ")"
                                     : "backends (" + base.info.backend + " vs " + candidate.info.backend + ")";
        if (!options.cross_device)
            throw UsageError(run_name(base) + " and " + run_name(candidate) + " are from different " + what +
                             ": pass --cross-device to compare them normalised by each run's roofline");
        cmp.normalised = true;
        cmp.warnings.push_back("runs from different " + what +
                               ": each case is compared as the fraction of its run's bounding roof it reaches, "
                               "not in seconds");
    }
    cmp.paired = paired(base, candidate);
    // When each run has one backend and they differ, the backend is left out of the matching.
    const bool ignore_backend =
        other_backend && single_backend(base.info.backend) && single_backend(candidate.info.backend);
    auto match_key = [ignore_backend](CaseKey k) {
        if (ignore_backend) k.backend.clear();
        return k;
    };

    std::map<CaseKey, const CaseRecord*> in_base;
    for (const auto& c : base.cases) in_base[match_key(c.key)] = &c;
    std::map<CaseKey, const CaseRecord*> in_cand;
    for (const auto& c : candidate.cases) in_cand[match_key(c.key)] = &c;
    for (const auto& [k, b] : in_base) {
        auto it = in_cand.find(k);
        if (it == in_cand.end()) {
            cmp.only_in_base.push_back(b->key);
            continue;
        }
        cmp.cases.push_back(compare_case(*b, *it->second, base, candidate, cmp.normalised, cmp.paired, options));
    }
    for (const auto& [k, c] : in_cand)
        if (!in_base.count(k)) cmp.only_in_candidate.push_back(c->key);

    for (const LoadedRun* r : {&base, &candidate})
        if (r->info.status != RunStatus::complete)
            cmp.warnings.push_back(run_name(*r) + " is " + std::string(to_string(r->info.status)) +
                                   ": cases it lacks are listed as unmatched");
    const bool few_reps =
        std::any_of(cmp.cases.begin(), cmp.cases.end(), [](const auto& c) { return c.basis == "samples"; });
    if (few_reps)
        cmp.warnings.push_back("fewer than " + std::to_string(options.min_repetitions) +
                               " repetitions per case: the rank test runs on samples of one repetition, which are "
                               "correlated, so the threshold band carries the decision (measure with "
                               "--benchmark_repetitions=" +
                               std::to_string(options.min_repetitions + 1) + " or more)");
    cmp.geomean = geometric_mean(cmp.cases, options.alpha);
    return cmp;
}

}  // namespace memwall

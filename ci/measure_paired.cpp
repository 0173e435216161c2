#include "ci/measure_paired.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <stdexcept>

#include "core/errors.hpp"
#include "harness/paired_sampler.hpp"
#include "stats/bootstrap.hpp"

namespace memwall {

ProblemScale ProblemScale::parse(const std::string& text) {
    const auto eq = text.find('=');
    ProblemScale s;
    char* end = nullptr;
    if (eq != std::string::npos && eq > 0) {
        s.axis = text.substr(0, eq);
        s.factor = std::strtod(text.c_str() + eq + 1, &end);
    }
    if (s.axis.empty() || !end || *end != '\0' || end == text.c_str() + eq + 1 || !(s.factor > 0))
        throw UsageError("--scale '" + text + "': expected AXIS=FACTOR with a positive factor, e.g. heads=1.1");
    return s;
}

Params ProblemScale::apply(Params problem) const {
    if (axis.empty()) return problem;
    const double scaled = static_cast<double>(problem.integer(axis)) * factor;
    if (std::abs(scaled - std::round(scaled)) > 1e-9)
        throw UsageError("--scale " + axis + ": " + std::to_string(problem.integer(axis)) + " x " +
                         std::to_string(factor) + " is not a whole number");
    problem.set(axis, static_cast<std::int64_t>(std::round(scaled)));
    return problem;
}

LocalArm::LocalArm(std::vector<PlannedCase> cases, std::uint64_t seed, MemoryHierarchy mh, MeasureOptions opt,
                   ProblemScale scale)
    : scale_(std::move(scale)), cases_(std::move(cases)), seed_(seed), mh_(std::move(mh)), opt_(std::move(opt)) {}

CaseRecord LocalArm::prepare(std::size_t index) {
    prepared_.reset();
    const PlannedCase& c = cases_.at(index);
    PreparedCase p = prepare_case(c, workloads_.get(c, scale_.apply(c.problem), seed_), mh_, opt_);
    prepared_ = std::move(p.instance);
    return std::move(p.record);
}

double LocalArm::sample() {
    if (!prepared_) throw std::logic_error("LocalArm::sample without a prepared case");
    return prepared_->run_timed();
}

namespace {

// Keeps the first record's identity, counters and message; a failure replaces an ok status.
void note(CaseRecord& into, CaseRecord&& rec) {
    if (into.key.family.empty() || (ran(into.status) && !ran(rec.status))) {
        std::vector<std::vector<double>> samples = std::move(into.samples);
        into = std::move(rec);
        into.samples = std::move(samples);
    }
}

// The record as stored: no samples unless ok, the summary over all of them.
CaseRecord finished(CaseRecord c) {
    if (!ran(c.status)) c.samples.clear();
    if (!c.samples.empty()) c.summary = summarize(pooled_samples(c.samples));
    return c;
}

}  // namespace

PairedRuns measure_paired(Arm& base, Arm& candidate, const PairedPlan& plan,
                          const std::function<void(std::size_t, std::size_t)>& progress, const std::atomic<bool>* stop,
                          const UnitDone& unit_done) {
    std::vector<std::size_t> units;
    for (std::size_t i = 0; i < plan.cases; ++i)
        for (int r = 0; r < plan.repetitions; ++r) units.push_back(i);
    std::mt19937_64 rng(plan.seed);
    if (plan.interleave) std::shuffle(units.begin(), units.end(), rng);

    PairedRuns out;
    out.base.resize(plan.cases);
    out.candidate.resize(plan.cases);
    for (std::size_t done = 0; done < units.size(); ++done) {
        if (stop && stop->load()) {
            out.interrupted = true;
            break;
        }
        const std::size_t i = units[done];
        CaseRecord rb = base.prepare(i), rc = candidate.prepare(i);
        const bool both = ran(rb.status) && ran(rc.status);
        note(out.base[i], std::move(rb));
        note(out.candidate[i], std::move(rc));
        if (both) {
            PairedSampling s = take_paired_samples([&] { return base.sample(); }, [&] { return candidate.sample(); },
                                                   plan.sampler, rng);
            out.base[i].samples.push_back(std::move(s.a.seconds));
            out.candidate[i].samples.push_back(std::move(s.b.seconds));
        }
        if (unit_done) unit_done(i, finished(out.base[i]), finished(out.candidate[i]));
        if (progress) progress(done + 1, units.size());
    }
    for (auto* side : {&out.base, &out.candidate})
        for (CaseRecord& c : *side) c = finished(std::move(c));
    return out;
}

}  // namespace memwall

#include "gui/core/compare.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <string_view>
#include <thread>
#include <tuple>

namespace memwall::gui {

namespace {

constexpr Verdict kSeverityOrder[] = {Verdict::failed, Verdict::slower, Verdict::unsure, Verdict::faster,
                                      Verdict::same};

LoadedRun loaded_run(const CompareSide& side, std::vector<CaseRecord> cases) {
    return LoadedRun{side.run.info, side.database, side.run.ceilings, std::move(cases)};
}

// Cases that compare_runs may pair share these; the backend is left out because runs of one
// backend each are matched across backends.
using Group = std::tuple<std::string_view, std::string_view, std::string_view, std::string_view>;
Group group_of(const CaseKey& k) { return {k.family, k.variant, k.problem, k.config}; }

// The positions of a chunk's cases in each side.
struct Chunk {
    std::vector<std::size_t> base, candidate;
};

struct ChunkResult {
    std::vector<ComparedCase> matched, only_base, only_candidate;
    std::vector<std::string> warnings;
};

std::int64_t id_of(const std::map<CaseKey, std::int64_t>& ids, const CaseKey& k) {
    const auto it = ids.find(k);
    return it == ids.end() ? 0 : it->second;
}

std::map<CaseKey, std::int64_t> ids_by_key(const std::vector<CaseRecord>& cases) {
    std::map<CaseKey, std::int64_t> out;
    for (const CaseRecord& c : cases) out.emplace(c.key, c.id);
    return out;
}

void fill(std::vector<CaseRecord>& cases, const SampleMap& samples, const CounterMap& counters, bool with_counters) {
    for (CaseRecord& c : cases) {
        if (const auto it = samples.find(c.id); it != samples.end()) c.samples = it->second;
        if (!with_counters) continue;
        if (const auto it = counters.find(c.id); it != counters.end()) c.counters = it->second;
    }
}

}  // namespace

CompareSide compare_side(const std::string& database, const RunRow& run, const std::vector<const CaseRow*>& rows) {
    CompareSide side{database, run, {}};
    side.cases.reserve(rows.size());
    for (const CaseRow* r : rows) {
        CaseRecord c;
        c.id = r->id;
        c.run_id = r->run_id;
        c.key = r->key;
        c.status = r->status;
        c.message = r->message.toStdString();
        c.summary.n = r->n_samples;
        c.summary.median = r->median;
        c.summary.min = r->min;
        c.summary.q1 = r->q1;
        c.summary.q3 = r->q3;
        c.sampling_stop = r->sampling_stop;
        side.cases.push_back(std::move(c));
    }
    return side;
}

bool needs_counters(const RunInfo& base, const RunInfo& candidate, const CompareOptions& options) {
    return options.cross_device && (base.device != candidate.device || base.backend != candidate.backend);
}

std::optional<RunComparison> compare_sides(CompareSide base, CompareSide candidate, const CompareOptions& options,
                                           const SampleMap& base_samples, const SampleMap& candidate_samples,
                                           const CounterMap& base_counters, const CounterMap& candidate_counters,
                                           const CompareControl& control) {
    // The runs without their cases: options and devices checked, and the run-level warnings,
    // exactly as compare_runs words them.
    const Comparison head = compare_runs(loaded_run(base, {}), loaded_run(candidate, {}), options);
    RunComparison out{options, head.normalised, head.paired, {}, head.warnings};

    const bool with_counters = needs_counters(base.run.info, candidate.run.info, options);
    fill(base.cases, base_samples, base_counters, with_counters);
    fill(candidate.cases, candidate_samples, candidate_counters, with_counters);

    std::vector<Chunk> chunks;
    {
        std::map<Group, Chunk> groups;
        for (std::size_t i = 0; i < base.cases.size(); ++i) groups[group_of(base.cases[i].key)].base.push_back(i);
        for (std::size_t i = 0; i < candidate.cases.size(); ++i)
            groups[group_of(candidate.cases[i].key)].candidate.push_back(i);
        for (const auto& [group, members] : groups) {
            if (chunks.empty() ||
                chunks.back().base.size() + chunks.back().candidate.size() >= std::max<std::size_t>(control.chunk, 1))
                chunks.emplace_back();
            Chunk& c = chunks.back();
            c.base.insert(c.base.end(), members.base.begin(), members.base.end());
            c.candidate.insert(c.candidate.end(), members.candidate.begin(), members.candidate.end());
        }
    }

    const std::size_t total = base.cases.size() + candidate.cases.size();
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::vector<ChunkResult> results(chunks.size());
    const auto stopped = [&] { return failed.load() || (control.stop && control.stop->load()); };
    // Each record belongs to one chunk, so threads move records out of distinct elements.
    const auto compare_chunk = [&](const Chunk& chunk, ChunkResult& r) {
        std::vector<CaseRecord> b, c;
        for (std::size_t i : chunk.base) b.push_back(std::move(base.cases[i]));
        for (std::size_t i : chunk.candidate) c.push_back(std::move(candidate.cases[i]));
        const std::size_t n = b.size() + c.size();
        const LoadedRun lb = loaded_run(base, std::move(b)), lc = loaded_run(candidate, std::move(c));
        Comparison cmp = compare_runs(lb, lc, options);
        const auto base_ids = ids_by_key(lb.cases), candidate_ids = ids_by_key(lc.cases);
        for (CaseComparison& x : cmp.cases) {
            // Matched across backends (one backend each), the base case has the base's backend.
            std::int64_t base_id = id_of(base_ids, x.key);
            if (base_id == 0) {
                CaseKey k = x.key;
                k.backend = base.run.info.backend;
                base_id = id_of(base_ids, k);
            }
            const std::int64_t candidate_id = id_of(candidate_ids, x.key);
            x.replicates = {};
            r.matched.push_back({base_id, candidate_id, std::move(x)});
        }
        for (const CaseKey& k : cmp.only_in_base) r.only_base.push_back({id_of(base_ids, k), 0, CaseComparison{k}});
        for (const CaseKey& k : cmp.only_in_candidate)
            r.only_candidate.push_back({0, id_of(candidate_ids, k), CaseComparison{k}});
        r.warnings = std::move(cmp.warnings);
        const std::size_t now = done += n;
        if (control.progress) control.progress(now, total);
    };
    const auto work = [&] {
        try {
            for (std::size_t i = next++; i < chunks.size() && !stopped(); i = next++)
                compare_chunk(chunks[i], results[i]);
        } catch (...) {
            if (!failed.exchange(true)) error = std::current_exception();
        }
    };
    const unsigned cores = control.threads ? control.threads : std::max(1u, std::thread::hardware_concurrency());
    const auto n_threads = static_cast<unsigned>(std::min<std::size_t>(cores, chunks.size()));
    {
        std::vector<std::jthread> threads;
        for (unsigned t = 1; t < n_threads; ++t) threads.emplace_back(work);
        work();
    }
    if (error) std::rethrow_exception(error);
    if (control.stop && control.stop->load()) return std::nullopt;

    for (auto part : {&ChunkResult::matched, &ChunkResult::only_base, &ChunkResult::only_candidate})
        for (ChunkResult& r : results)
            out.cases.insert(out.cases.end(), std::make_move_iterator((r.*part).begin()),
                             std::make_move_iterator((r.*part).end()));
    for (const ChunkResult& r : results)
        for (const std::string& w : r.warnings)
            if (std::find(out.warnings.begin(), out.warnings.end(), w) == out.warnings.end()) out.warnings.push_back(w);
    return out;
}

std::vector<CompareRow> compare_rows(std::vector<ComparedCase> cases, const std::vector<const CaseRow*>& baseline,
                                     const std::vector<const CaseRow*>& candidate) {
    std::unordered_map<std::int64_t, const CaseRow*> base_rows, candidate_rows;
    for (const CaseRow* r : baseline) base_rows.emplace(r->id, r);
    for (const CaseRow* r : candidate) candidate_rows.emplace(r->id, r);
    const auto find = [](const auto& rows, std::int64_t id) -> const CaseRow* {
        const auto it = rows.find(id);
        return it == rows.end() ? nullptr : it->second;
    };
    std::vector<CompareRow> out;
    out.reserve(cases.size());
    for (ComparedCase& c : cases) {
        CompareRow r{std::move(c.result), {}, find(base_rows, c.baseline_id), find(candidate_rows, c.candidate_id)};
        const CaseRow* any = r.candidate ? r.candidate : r.baseline;
        if (!any) continue;  // not among the rows given
        r.label = case_label(*any);
        out.push_back(std::move(r));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const CompareRow& a, const CompareRow& b) { return severity(a) < severity(b); });
    return out;
}

QString verdict_text(const CompareRow& row) {
    if (!row.candidate) return QStringLiteral("only in baseline");
    if (!row.baseline) return QStringLiteral("only in candidate");
    return qstr(to_string(row.result.verdict));
}

QColor verdict_colour(Verdict v) {
    switch (v) {
        case Verdict::faster: return QColor(0, 140, 70);
        case Verdict::slower: return QColor(200, 30, 30);
        case Verdict::failed: return QColor(130, 0, 110);
        case Verdict::unsure: return QColor(190, 130, 0);
        case Verdict::same: return QColor(120, 120, 120);
    }
    return {};
}

int severity(const CompareRow& row) {
    if (!row.candidate) return 5;
    if (!row.baseline) return 6;
    return static_cast<int>(std::find(std::begin(kSeverityOrder), std::end(kSeverityOrder), row.result.verdict) -
                            std::begin(kSeverityOrder));
}

QString verdict_summary(const std::vector<CompareRow>& rows) {
    std::map<int, std::size_t> counts;
    for (const CompareRow& r : rows) ++counts[severity(r)];
    QStringList parts;
    for (int s = 0; s < 5; ++s)
        if (counts[s]) parts << QStringLiteral("%1 %2").arg(counts[s]).arg(qstr(to_string(kSeverityOrder[s])));
    QString text = parts.isEmpty() ? QStringLiteral("no case in both runs") : parts.join(QStringLiteral(", "));
    if (counts[5]) text += QStringLiteral(", %1 only in baseline").arg(counts[5]);
    if (counts[6]) text += QStringLiteral(", %1 only in candidate").arg(counts[6]);
    return text;
}

}  // namespace memwall::gui

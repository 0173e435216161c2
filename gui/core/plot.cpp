#include "gui/core/plot.hpp"

#include <algorithm>
#include <map>

#include "gui/core/chart_export.hpp"
#include "gui/core/run_model.hpp"
#include "core/errors.hpp"

namespace memwall::gui {

namespace {

QString kernel_of(const CaseRow& r) { return r.family + QLatin1Char('/') + r.variant + QLatin1Char('/') + r.backend; }

QString ceilings_note(const Ceilings& c) {
    if (c.empty()) return QStringLiteral("no ceilings stored");
    const std::string& method = c.items.front().method;
    if (method.find("theoretical") != std::string::npos)
        return QStringLiteral("theoretical device ceilings (not measured)");
    return QStringLiteral("ceilings measured (%1)").arg(QString::fromStdString(method.substr(0, method.find(','))));
}

const RunRow& find_run(const std::vector<RunRow>& runs, std::int64_t id) {
    for (const RunRow& r : runs)
        if (r.info.id == id) return r;
    throw UsageError("no run " + std::to_string(id) + " in the database");
}

}  // namespace

std::vector<const CaseRow*> pointers(const std::vector<CaseRow>& rows) {
    std::vector<const CaseRow*> out;
    out.reserve(rows.size());
    for (const CaseRow& r : rows) out.push_back(&r);
    return out;
}

Ceilings roofs_for(const Ceilings& all, const std::vector<const CaseRow*>& rows) {
    const bool gpu = !rows.empty() && std::all_of(rows.begin(), rows.end(),
                                                  [](const CaseRow* r) { return r->backend == QLatin1String("cuda"); });
    return all.for_backend(gpu ? "cuda" : "cpu");
}

void configure_roofline(RooflineChart& chart, const RunRow& run, const std::vector<const CaseRow*>& rows) {
    const Ceilings roofs = roofs_for(run.ceilings, rows);
    chart.set_title(QStringLiteral("Roofline: ") + run_title(run.info),
                    QString::fromStdString(run.info.device) + QStringLiteral(" · ") + ceilings_note(roofs));
    chart.set_ceilings(roofs);
    chart.set_cases(rows);
}

RunComparison compare_now(const ResultsReader& reader, const RunRow& baseline,
                          const std::vector<const CaseRow*>& baseline_rows, const RunRow& candidate,
                          const std::vector<const CaseRow*>& candidate_rows, const CompareOptions& options) {
    const std::string& db = reader.store().path();
    const bool counters = needs_counters(baseline.info, candidate.info, options);
    const auto counters_of = [&](const RunRow& r) { return counters ? reader.counters(r.info.id) : CounterMap{}; };
    auto result = compare_sides(compare_side(db, baseline, baseline_rows), compare_side(db, candidate, candidate_rows),
                                options, reader.samples(baseline.info.id), reader.samples(candidate.info.id),
                                counters_of(baseline), counters_of(candidate));
    return std::move(*result);  // nothing can stop it
}

void configure_compare(RooflineChart& chart, const RunRow& baseline, const RunRow& candidate,
                       const std::vector<CompareRow>& rows, const RunComparison& comparison) {
    std::vector<const CaseRow*> points;
    std::vector<RoofArrow> arrows;
    for (const CompareRow& r : rows) {
        if (!r.candidate) continue;
        points.push_back(r.candidate);
        if (!r.matched() || !r.baseline->timed() || !r.candidate->timed()) continue;
        const RooflinePoint &b = r.baseline->point, &c = r.candidate->point;
        if (b.intensity > 0 && c.intensity > 0 && b.flops_per_second > 0 && c.flops_per_second > 0)
            arrows.push_back(RoofArrow{b.intensity, b.flops_per_second, c.intensity, c.flops_per_second,
                                       verdict_colour(r.result.verdict)});
    }
    const CompareOptions& o = comparison.options;
    chart.set_title(QStringLiteral("Compare: run %1 (candidate) against run %2 (baseline)")
                        .arg(candidate.info.id)
                        .arg(baseline.info.id),
                    QStringLiteral("%1 · memwall compare's rule: %2 beyond ±%3% and p < %4%5 · %6")
                        .arg(verdict_summary(rows), qstr(confidence_label(o.alpha)))
                        .arg(o.threshold * 100)
                        .arg(o.alpha)
                        .arg(comparison.normalised ? QStringLiteral(" · normalised by each run's roofline") : QString(),
                             ceilings_note(roofs_for(candidate.ceilings, points))));
    chart.set_ceilings(roofs_for(candidate.ceilings, points));
    chart.set_level("");
    chart.set_cases(points);
    std::vector<LegendEntry> legend{{LegendEntry::Kind::heading, QStringLiteral("Baseline → candidate")}};
    for (const Verdict v : {Verdict::faster, Verdict::slower, Verdict::same, Verdict::unsure})
        legend.push_back({LegendEntry::Kind::line, qstr(to_string(v)), verdict_colour(v)});
    chart.set_arrows(std::move(arrows), std::move(legend));
}

QStringList mappable_kernels(const std::vector<const CaseRow*>& rows) {
    QStringList kernels;
    for (const CaseRow* r : rows)
        if (!kernels.contains(kernel_of(*r))) kernels << kernel_of(*r);
    std::vector<std::pair<int, QString>> mappable;  // (varying tunables, kernel)
    for (const QString& k : kernels) {
        const auto mine = rows_of_kernel(rows, k);
        const QStringList axes = varying_params(mine);
        if (axes.size() < 2) continue;
        int tunables = 0;
        for (const Param& p : mine.front()->params) tunables += p.tunable && axes.contains(p.name);
        mappable.emplace_back(tunables, k);
    }
    std::stable_sort(mappable.begin(), mappable.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    QStringList out;
    for (const auto& [tunables, k] : mappable) out << k;
    return out;
}

std::vector<const CaseRow*> rows_of_kernel(const std::vector<const CaseRow*>& rows, const QString& kernel) {
    std::vector<const CaseRow*> out;
    for (const CaseRow* r : rows)
        if (kernel_of(*r) == kernel) out.push_back(r);
    return out;
}

void configure_heatmap(HeatmapChart& chart, const QString& kernel, ParameterMap map) {
    chart.set_title(
        QStringLiteral("Parameter map: %1").arg(kernel),
        QStringLiteral("%1 by %2 (x) and %3 (y); each cell the best over the other parameters; best cell outlined")
            .arg(metric_text(map.metric), map.x_axis, map.y_axis));
    chart.set_map(std::move(map));
}

void configure_tuning(TuningChart& chart, const TuningStudy& study, std::vector<TuningTrace> traces) {
    std::map<QString, int> strategies;
    std::size_t evaluations = 0;
    for (const TuningTrace& t : traces) {
        ++strategies[t.strategy];
        evaluations = std::max(evaluations, t.steps.size());
    }
    QStringList counts;
    for (const auto& [name, n] : strategies) counts << QStringLiteral("%1 %2").arg(n).arg(name);
    chart.set_title(
        QStringLiteral("Tuning: %1 · %2 · %3").arg(study.kernel, study.device, study.backend),
        (study.problem.isEmpty() ? QString() : study.problem + QStringLiteral(" · ")) +
            QStringLiteral(
                "best-so-far kernel time against evaluations · %1 session%2 (%3), up to %4 evaluations · times %5")
                .arg(traces.size())
                .arg(traces.size() == 1 ? QString() : QStringLiteral("s"))
                .arg(counts.join(QStringLiteral(", ")))
                .arg(evaluations)
                .arg(study.time_label));
    chart.set_traces(std::move(traces), study.time_label);
}

int find_study(const std::vector<TuningStudy>& studies, const std::string& text) {
    if (text.empty()) return newest_study(studies);
    for (std::size_t i = 0; i < studies.size(); ++i)
        for (const TuningSessionSummary& s : studies[i].sessions)
            if (std::to_string(s.info.id) == text) return static_cast<int>(i);
    for (std::size_t i = 0; i < studies.size(); ++i)
        if (studies[i].name().contains(QString::fromStdString(text), Qt::CaseInsensitive)) return static_cast<int>(i);
    return -1;
}

namespace {

void plot_tuning(const ResultsReader& reader, const PlotRequest& q, const QSize& size) {
    const std::vector<TuningStudy> studies = tuning_studies(tuning_sessions(reader.store()));
    if (studies.empty())
        throw UsageError(reader.store().path() +
                         " has no tuning session: memwall tune stores one (--replay FILE, or --family and --variant)");
    const int i = find_study(studies, q.session);
    if (i < 0)
        throw UsageError("no tuning session matches '" + q.session +
                         "' (give a session id or part of its kernel, problem or device)");
    const TuningStudy& study = studies[static_cast<std::size_t>(i)];
    TuningChart chart;
    configure_tuning(chart, study, study_traces(reader.store(), study));
    save_chart(chart, QString::fromStdString(q.out), size);
}

}  // namespace

void plot(const ResultsReader& reader, const PlotRequest& q) {
    const QSize size(q.width, q.height);
    if (size.width() < 200 || size.height() < 150) throw UsageError("--size must be at least 200x150");
    if (q.kind == "tuning") return plot_tuning(reader, q, size);
    const std::vector<RunRow> runs = reader.runs();
    const RunRow& run = find_run(runs, q.run);
    const std::vector<CaseRow> rows = reader.cases(run.info.id, run.ceilings);
    const std::vector<const CaseRow*> ptrs = pointers(rows);
    const QString out = QString::fromStdString(q.out);

    if (q.kind == "roofline") {
        if (!q.level.empty() && q.level != RooflineChart::kEveryLevel) {
            const Ceiling* c = roofs_for(run.ceilings, ptrs).find(q.level);
            if (!c || c->kind != CeilingKind::bandwidth)
                throw UsageError("--level " + q.level + ": run " + std::to_string(run.info.id) +
                                 " has no bandwidth ceiling of that name (levels: all, dram, llc, l2, l1)");
        }
        RooflineChart chart;
        chart.set_level(q.level);
        configure_roofline(chart, run, ptrs);
        save_chart(chart, out, size);
    } else if (q.kind == "compare") {
        std::int64_t base_id = 0;
        if (q.baseline) {
            base_id = *q.baseline;
        } else {
            const auto it =
                std::find_if(runs.begin(), runs.end(), [&](const RunRow& r) { return r.info.id == run.info.id; });
            if (it == runs.begin())
                throw UsageError("run " + std::to_string(run.info.id) +
                                 " is the oldest: name a baseline with --baseline");
            base_id = std::prev(it)->info.id;
        }
        const RunRow& base = find_run(runs, base_id);
        const std::vector<CaseRow> base_rows = reader.cases(base.info.id, base.ceilings);
        const std::vector<const CaseRow*> base_ptrs = pointers(base_rows);
        RooflineChart chart;
        RunComparison comparison = compare_now(reader, base, base_ptrs, run, ptrs, q.compare);
        configure_compare(chart, base, run, compare_rows(std::move(comparison.cases), base_ptrs, ptrs), comparison);
        save_chart(chart, out, size);
    } else if (q.kind == "heatmap") {
        const QStringList kernels = mappable_kernels(ptrs);
        QString kernel = QString::fromStdString(q.kernel);
        if (kernel.isEmpty()) {
            if (kernels.isEmpty())
                throw UsageError("no kernel in run " + std::to_string(run.info.id) +
                                 " varies two parameters; sweep two axes (e.g. --axis seq_q=512,1024 --axis Br=16,32)");
            kernel = kernels.front();
        } else if (!kernels.contains(kernel)) {
            throw UsageError("kernel " + q.kernel + " does not vary two parameters in run " +
                             std::to_string(run.info.id) +
                             " (mappable: " + kernels.join(QStringLiteral(", ")).toStdString() + ")");
        }
        const auto mine = rows_of_kernel(ptrs, kernel);
        const QStringList axes = varying_params(mine);
        const QString x = q.x.empty() ? axes[0] : QString::fromStdString(q.x);
        const QString y = q.y.empty() ? (axes[0] == x ? axes[1] : axes[0]) : QString::fromStdString(q.y);
        for (const QString& a : {x, y})
            if (!axes.contains(a))
                throw UsageError("axis " + a.toStdString() + " does not vary for " + kernel.toStdString() +
                                 " (axes that vary: " + axes.join(QStringLiteral(", ")).toStdString() + ")");
        if (x == y) throw UsageError("--x and --y must name different axes");
        HeatmapChart chart;
        configure_heatmap(chart, kernel, build_parameter_map(mine, x, y, q.metric));
        save_chart(chart, out, size);
    } else {
        throw UsageError("unknown chart '" + q.kind + "' (charts: roofline, compare, heatmap, tuning)");
    }
}

}  // namespace memwall::gui

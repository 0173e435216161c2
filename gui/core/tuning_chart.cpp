#include "gui/core/tuning_chart.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "gui/core/chart_style.hpp"
#include "gui/core/units.hpp"

namespace memwall::gui {

namespace {

// Strategy colours by name, so a strategy keeps its colour across sessions.
std::map<QString, int> strategy_index(const std::vector<TuningTrace>& traces) {
    std::map<QString, int> out;
    for (const TuningTrace& t : traces) out.emplace(t.strategy, 0);
    int i = 0;
    for (auto& [name, index] : out) index = i++;
    return out;
}

}  // namespace

QString TuningChart::time_axis_title() const {
    return QStringLiteral("Best time (s), ") + (time_label_.isEmpty() ? QStringLiteral("measured") : time_label_);
}

void TuningChart::set_title(const QString& title, const QString& subtitle) {
    title_ = title;
    subtitle_ = subtitle;
}

bool TuningChart::has_times() const {
    for (const TuningTrace& t : traces_)
        for (const TuningStep& s : t.steps)
            if (!std::isnan(s.seconds)) return true;
    return false;
}

PlotMapping TuningChart::mapping(const QRectF& area) const {
    // From the best time to the slowest first success: every best-so-far curve fits, so the
    // strategies stay apart; slower evaluations' dots fall above the frame and are cut.
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    int n = 1;
    for (const TuningTrace& t : traces_) {
        n = std::max(n, static_cast<int>(t.steps.size()));
        bool first = true;
        for (const TuningStep& s : t.steps) {
            if (std::isnan(s.seconds)) continue;
            lo = std::min(lo, s.seconds);
            if (first) hi = std::max(hi, s.seconds);
            first = false;
        }
    }
    if (!(hi > 0)) throw std::logic_error("tuning chart: no successful evaluation");
    const ChartLayout l = chart_layout(area, true);
    return PlotMapping::over(l.plot, 0, n + 1, lo / 1.15, hi * 1.15, Scale::linear, Scale::log);
}

void TuningChart::paint(QPainter& p, const QRectF& area) const {
    const ChartLayout layout = chart_layout(area, true);
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    draw_background(p, area);
    draw_title(p, layout.title, title_, subtitle_);
    if (!has_times()) {
        p.setPen(QColor(60, 60, 60));
        p.drawRect(layout.plot);
        draw_note(p, layout.plot,
                  traces_.empty()
                      ? QStringLiteral(
                            "no tuning session: memwall tune stores one (--replay FILE, or --family and --variant)")
                      : QStringLiteral("no successful evaluation in these sessions"));
        p.restore();
        return;
    }
    const PlotMapping m = mapping(area);
    draw_axes(
        p, m, QStringLiteral("Evaluations (unique configurations)"), time_axis_title(),
        [](double v) { return QString::number(v, 'g', 6); }, [](double v) { return seconds_text(v); }, 1);
    const auto index = strategy_index(traces_);
    p.save();
    p.setClipRect(m.frame.adjusted(-5, -5, 5, 5));
    for (const TuningTrace& t : traces_) {
        const QColor colour = series_colour(index.at(t.strategy));
        QColor faint = colour;
        faint.setAlphaF(0.35f);
        for (const TuningStep& s : t.steps) {
            if (std::isnan(s.seconds)) {
                p.setPen(QPen(faint, 1.5));
                const QPointF at(m.x.to_pixel(s.evaluation), m.frame.bottom() - 6);
                p.drawLine(at + QPointF(-3, -3), at + QPointF(3, 3));
                p.drawLine(at + QPointF(-3, 3), at + QPointF(3, -3));
                continue;
            }
            p.setPen(Qt::NoPen);
            p.setBrush(faint);
            p.drawEllipse(m.to_pixel(s.evaluation, s.seconds), 3, 3);
        }
        QPolygonF line;
        for (const TuningStep& s : t.steps) {
            if (std::isnan(s.best_seconds)) continue;
            const QPointF at = m.to_pixel(s.evaluation, s.best_seconds);
            if (!line.isEmpty()) line << QPointF(at.x(), line.back().y());
            line << at;
        }
        p.setPen(QPen(colour, 2.2));
        p.setBrush(Qt::NoBrush);
        p.drawPolyline(line);
    }
    p.restore();

    std::vector<LegendEntry> legend;
    legend.push_back({LegendEntry::Kind::heading, QStringLiteral("Strategy (best so far)")});
    for (const auto& [name, i] : index) {
        const auto sessions =
            std::count_if(traces_.begin(), traces_.end(), [&](const TuningTrace& t) { return t.strategy == name; });
        legend.push_back({LegendEntry::Kind::line,
                          sessions == 1 ? name : QStringLiteral("%1 (%2 sessions)").arg(name).arg(sessions),
                          series_colour(i)});
    }
    legend.push_back({LegendEntry::Kind::heading, QStringLiteral("Each evaluation")});
    legend.push_back({LegendEntry::Kind::marker, QStringLiteral("time (dot), failed (×)"), QColor(150, 150, 150),
                      Marker::circle, true});
    draw_legend(p, layout.legend, legend);
    p.restore();
}

const TuningStep* TuningChart::step_at(const QPointF& pixel, const QRectF& area, const TuningTrace** trace) const {
    if (!has_times()) return nullptr;
    const PlotMapping m = mapping(area);
    const TuningStep* best = nullptr;
    double best_d2 = 7.0 * 7.0;
    for (const TuningTrace& t : traces_)
        for (const TuningStep& s : t.steps) {
            if (std::isnan(s.seconds)) continue;
            const QPointF q = m.to_pixel(s.evaluation, s.seconds);
            const double d2 = std::pow(q.x() - pixel.x(), 2) + std::pow(q.y() - pixel.y(), 2);
            if (d2 <= best_d2) {
                best_d2 = d2;
                best = &s;
                *trace = &t;
            }
        }
    return best;
}

QString TuningChart::tooltip_at(const QPointF& pixel, const QRectF& area) const {
    const TuningTrace* t = nullptr;
    const TuningStep* s = step_at(pixel, area, &t);
    if (!s) return {};
    return QStringLiteral("%1, evaluation %2: %3 (best so far %4)\n%5")
        .arg(t->name)
        .arg(s->evaluation)
        .arg(seconds_text(s->seconds), seconds_text(s->best_seconds), s->config);
}

}  // namespace memwall::gui

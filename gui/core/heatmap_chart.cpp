#include "gui/core/heatmap_chart.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <QFontMetricsF>
#include <QLinearGradient>

#include "gui/core/chart_style.hpp"
#include "gui/core/roofline_chart.hpp"
#include "gui/core/units.hpp"

namespace memwall::gui {

namespace {

struct Extent {
    double lo = 0, hi = 0;
    bool any = false;
};

Extent extent(const ParameterMap& m) {
    Extent e;
    for (const double v : m.cells) {
        if (std::isnan(v)) continue;
        e.lo = e.any ? std::min(e.lo, v) : v;
        e.hi = e.any ? std::max(e.hi, v) : v;
        e.any = true;
    }
    return e;
}

// Position of `v` on the colour scale, 1 at the better end.
double scale_position(const ParameterMap& m, const Extent& e, double v) {
    if (!e.any || e.hi <= e.lo) return 1;
    if (m.metric == MapMetric::time) {
        const double t = (std::log(v) - std::log(e.lo)) / (std::log(e.hi) - std::log(e.lo));
        return 1 - t;
    }
    return (v - e.lo) / (e.hi - e.lo);
}

constexpr double kColourBar = 120;

}  // namespace

QColor viridis(double t) {
    static constexpr std::array<QRgb, 9> kStops{0xff440154, 0xff472d7b, 0xff3b528b, 0xff2c728e, 0xff21918c,
                                                0xff28ae80, 0xff5ec962, 0xffaadc32, 0xfffde725};
    t = std::clamp(t, 0.0, 1.0) * (kStops.size() - 1);
    const auto i = std::min(static_cast<std::size_t>(t), kStops.size() - 2);
    const double f = t - static_cast<double>(i);
    const QColor a = QColor::fromRgb(kStops[i]), b = QColor::fromRgb(kStops[i + 1]);
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * f),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * f),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * f));
}

QColor heat_colour(const ParameterMap& map, double value) {
    if (std::isnan(value)) return QColor(225, 225, 225);
    return viridis(scale_position(map, extent(map), value));
}

QString cell_text(const ParameterMap& map, double value) {
    return map.metric == MapMetric::time ? seconds_text(value) : QStringLiteral("%1%").arg(value, 0, 'f', 1);
}

void HeatmapChart::set_title(const QString& title, const QString& subtitle) {
    title_ = title;
    subtitle_ = subtitle;
}

QRectF HeatmapChart::grid_rect(const QRectF& area) const {
    const ChartLayout l = chart_layout(area, true, kColourBar);
    return l.plot;
}

QRectF HeatmapChart::cell_rect(int x, int y, const QRectF& area) const {
    const QRectF g = grid_rect(area);
    const double w = g.width() / std::max(1, map_.nx()), h = g.height() / std::max(1, map_.ny());
    // Row 0 (the smallest y value) at the bottom, as on a plot.
    return QRectF(g.left() + x * w, g.bottom() - (y + 1) * h, w, h);
}

std::optional<std::pair<int, int>> HeatmapChart::cell_at(const QPointF& pixel, const QRectF& area) const {
    const QRectF g = grid_rect(area);
    if (map_.nx() == 0 || map_.ny() == 0 || !g.contains(pixel)) return std::nullopt;
    const int x = std::clamp(static_cast<int>((pixel.x() - g.left()) / g.width() * map_.nx()), 0, map_.nx() - 1);
    const int y = std::clamp(static_cast<int>((g.bottom() - pixel.y()) / g.height() * map_.ny()), 0, map_.ny() - 1);
    return std::make_pair(x, y);
}

QString HeatmapChart::tooltip_at(const QPointF& pixel, const QRectF& area) const {
    const auto c = cell_at(pixel, area);
    if (!c) return {};
    const CaseRow* row = map_.cell_case(c->first, c->second);
    const QString where =
        QStringLiteral("%1=%2, %3=%4").arg(map_.x_axis, map_.x_values[c->first], map_.y_axis, map_.y_values[c->second]);
    if (!row) return where + QStringLiteral(": no timed case");
    return where + QStringLiteral(": ") + cell_text(map_, map_.value(c->first, c->second)) + QStringLiteral("\n\n") +
           case_tooltip(*row);
}

std::optional<std::int64_t> HeatmapChart::case_at(const QPointF& pixel, const QRectF& area) const {
    const auto c = cell_at(pixel, area);
    if (!c) return std::nullopt;
    const CaseRow* row = map_.cell_case(c->first, c->second);
    if (!row) return std::nullopt;
    return row->id;
}

void HeatmapChart::paint(QPainter& p, const QRectF& area) const {
    const ChartLayout layout = chart_layout(area, true, kColourBar);
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    draw_background(p, area);
    draw_title(p, layout.title, title_, subtitle_);
    const QRectF g = layout.plot;
    if (map_.nx() == 0 || map_.ny() == 0) {
        draw_note(p, g, QStringLiteral("no cases vary along both axes"));
        p.restore();
        return;
    }
    const double w = g.width() / map_.nx(), h = g.height() / map_.ny();
    p.setFont(chart_font(std::clamp(static_cast<int>(std::min(w / 6, h / 2.2)), 8, 13)));
    const QFontMetricsF fm(p.font());
    for (int y = 0; y < map_.ny(); ++y) {
        for (int x = 0; x < map_.nx(); ++x) {
            const QRectF r = cell_rect(x, y, area);
            const double v = map_.value(x, y);
            const QColor c = heat_colour(map_, v);
            p.fillRect(r, c);
            p.setPen(QPen(Qt::white, 1));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r);
            if (std::isnan(v)) continue;
            const QString text = cell_text(map_, v);
            if (fm.horizontalAdvance(text) + 4 < r.width() && fm.height() < r.height()) {
                p.setPen(c.lightnessF() > 0.55 ? Qt::black : Qt::white);
                p.drawText(r, Qt::AlignCenter, text);
            }
        }
    }
    if (map_.best) {
        const QRectF r = cell_rect(map_.best->first, map_.best->second, area).adjusted(1.5, 1.5, -1.5, -1.5);
        p.setPen(QPen(QColor(220, 20, 60), 3));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r);
        p.setFont(chart_font(11, true));
        p.setPen(QColor(220, 20, 60));
        p.drawText(r.adjusted(3, 1, -3, -1), Qt::AlignTop | Qt::AlignLeft, QStringLiteral("best"));
    }

    // Axes: the values under and beside the cells, and the parameter names.
    p.setPen(QColor(40, 40, 40));
    p.setFont(chart_font(11));
    for (int x = 0; x < map_.nx(); ++x) {
        const QRectF r = cell_rect(x, 0, area);
        p.drawText(QRectF(r.left(), g.bottom() + 4, r.width(), 16), Qt::AlignHCenter | Qt::AlignTop, map_.x_values[x]);
    }
    for (int y = 0; y < map_.ny(); ++y) {
        const QRectF r = cell_rect(0, y, area);
        p.drawText(QRectF(g.left() - 66, r.top(), 60, r.height()), Qt::AlignRight | Qt::AlignVCenter, map_.y_values[y]);
    }
    p.setFont(chart_font(12, true));
    p.drawText(QRectF(g.left(), g.bottom() + 26, g.width(), 20), Qt::AlignHCenter | Qt::AlignTop, map_.x_axis);
    p.save();
    p.translate(g.left() - 72, g.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-g.height() / 2, -10, g.height(), 20), Qt::AlignCenter, map_.y_axis);
    p.restore();

    // Colour bar: the better end at the top.
    const Extent e = extent(map_);
    const QRectF bar(layout.legend.left() + 4, layout.legend.top() + 22, 18,
                     std::min(260.0, layout.legend.height() - 40));
    p.setFont(chart_font(11, true));
    p.drawText(QRectF(layout.legend.left(), layout.legend.top(), layout.legend.width(), 18), Qt::AlignLeft,
               map_.metric == MapMetric::time ? QStringLiteral("Median time") : QStringLiteral("% of roof"));
    QLinearGradient grad(bar.topLeft(), bar.bottomLeft());
    for (int i = 0; i <= 8; ++i) grad.setColorAt(i / 8.0, viridis(1 - i / 8.0));
    p.fillRect(bar, grad);
    p.setPen(QColor(60, 60, 60));
    p.drawRect(bar);
    if (e.any) {
        const bool time = map_.metric == MapMetric::time;
        const QString top = cell_text(map_, time ? e.lo : e.hi), bottom = cell_text(map_, time ? e.hi : e.lo);
        p.setFont(chart_font(11));
        p.drawText(QRectF(bar.right() + 6, bar.top() - 2, 90, 16), Qt::AlignLeft | Qt::AlignTop,
                   top + QStringLiteral(" (best)"));
        p.drawText(QRectF(bar.right() + 6, bar.bottom() - 14, 90, 16), Qt::AlignLeft | Qt::AlignBottom, bottom);
    }
    p.restore();
}

}  // namespace memwall::gui

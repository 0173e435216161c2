// The roofline: log-log, the run's measured ceilings as straight roofs (three points each,
// from roof_polyline), cases coloured by variant and shaped by backend, filled when their bytes
// are measured (cupti, perf, emu) and hollow when modelled, optional arrows (baseline ->
// candidate), zoom and pan. A case is one point at a chosen level, or, hierarchical, one point
// per level it has bytes at, joined by a line (as Nsight Compute draws it), with the other
// sources' points beside (the model's beside measured ones) joined by a dashed line.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <QColor>

#include "gui/core/axis_mapping.hpp"
#include "gui/core/case_data.hpp"
#include "gui/core/chart.hpp"
#include "gui/core/chart_style.hpp"

namespace memwall::gui {

struct RoofPoint {
    const CaseRow* row = nullptr;  // for tooltips; owned by the caller
    double intensity = 0;          // FLOP per byte at the point's level
    double flops_per_second = 0;
    int series = 0;  // index into series()
    Marker marker = Marker::circle;
    CounterSource source = CounterSource::model;  // of the bytes at the point's level
    std::string level;                            // the level whose bytes place it
    bool beside = false;                          // another source's point beside the preferred one at its level
};

struct RoofArrow {
    double x0, y0, x1, y1;  // intensity, FLOP/s: from (baseline) to (candidate)
    QColor colour;
};

class RooflineChart : public Chart {
  public:
    void set_title(const QString& title, const QString& subtitle);
    const QString& subtitle() const { return subtitle_; }
    void set_ceilings(const Ceilings& c);
    const Ceilings& ceilings() const { return ceilings_; }
    // The memory level whose intensity places the points: "dram", "llc", "l2", "l1", "" for
    // each case's primary (outermost) level, or kEveryLevel for the hierarchical roofline.
    static constexpr const char* kEveryLevel = "all";
    void set_level(const std::string& level);
    const std::string& level() const { return level_; }
    // Hierarchical roofline: also the other sources' points beside the preferred ones (default on).
    void set_show_modelled(bool on) { show_modelled_ = on; }
    bool show_modelled() const { return show_modelled_; }
    // Places the timed, valid cases; `rows` must outlive the chart or the next call.
    void set_cases(const std::vector<const CaseRow*>& rows);
    // Arrows and the legend entries that explain them.
    void set_arrows(std::vector<RoofArrow> arrows, std::vector<LegendEntry> legend) {
        arrows_ = std::move(arrows);
        extra_legend_ = std::move(legend);
    }
    void set_selected(std::optional<std::int64_t> case_id) { selected_ = case_id; }
    std::optional<std::int64_t> selected() const { return selected_; }

    // Roofs by ceiling name ("dram", "llc", ..., and compute ones such as "fp32_fma").
    std::vector<std::string> roof_names() const;
    void set_roof_visible(const std::string& name, bool visible);
    bool roof_visible(const std::string& name) const { return !hidden_.count(name); }

    // In drawing order; a case's points are adjacent (its preferred levels outermost first, then
    // the model's beside them).
    const std::vector<RoofPoint>& points() const { return points_; }
    const std::vector<QString>& series() const { return series_; }
    // Cases left out because they are untimed or lack bytes at the level (or ceilings).
    std::size_t unplaced() const { return unplaced_; }

    // The mapping used to paint in `area` (tests check roofs and points through it).
    PlotMapping mapping(const QRectF& area) const;
    Range x_range() const;
    Range y_range() const;

    void paint(QPainter& p, const QRectF& area) const override;
    QString tooltip_at(const QPointF& pixel, const QRectF& area) const override;
    std::optional<std::int64_t> case_at(const QPointF& pixel, const QRectF& area) const override;
    bool zoom(double factor, const QPointF& pixel, const QRectF& area) override;
    bool pan(const QPointF& delta, const QRectF& area) override;
    void reset_view() override { view_.reset(); }

  private:
    std::optional<std::size_t> point_at(const QPointF& pixel, const QRectF& area) const;
    void set_view(const PlotMapping& m);

    QString title_ = QStringLiteral("Roofline"), subtitle_;
    Ceilings ceilings_;
    std::string level_;
    bool show_modelled_ = true;
    std::vector<RoofPoint> points_;
    std::vector<QString> series_;
    std::size_t unplaced_ = 0;
    std::vector<RoofArrow> arrows_;
    std::vector<LegendEntry> extra_legend_;
    std::optional<std::int64_t> selected_;
    std::set<std::string> hidden_;
    struct View {
        double x_lo, x_hi, y_lo, y_hi;
    };
    std::optional<View> view_;  // none: fitted to the data and roofs
};

// Human name of a ceiling or level: "DRAM", "LLC", "L2", "FP32 FMA".
QString ceiling_label(const std::string& name);
// Tooltip of a case: kernel, parameters, time, FLOP/s, bytes per level with sources, bound.
QString case_tooltip(const CaseRow& row);
// "each case's outermost level", "every level", "L2": what places the points.
QString level_phrase(const std::string& level);

}  // namespace memwall::gui

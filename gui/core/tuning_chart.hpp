// Best-so-far time against evaluations for the sessions of one tuning study: each session a
// step line in its strategy's colour, each evaluation's own time a faint dot, a failed one a
// cross; the time axis says what the times are (measured, recorded on a device, predicted).
#pragma once

#include <vector>

#include "gui/core/axis_mapping.hpp"
#include "gui/core/chart.hpp"
#include "gui/core/tuning_traces.hpp"

namespace memwall::gui {

class TuningChart : public Chart {
  public:
    void set_title(const QString& title, const QString& subtitle);
    // The traces to draw (the sessions of one study) and what their times are.
    void set_traces(std::vector<TuningTrace> traces, const QString& time_label) {
        traces_ = std::move(traces);
        time_label_ = time_label;
    }
    const std::vector<TuningTrace>& traces() const { return traces_; }
    // The time axis' title.
    QString time_axis_title() const;

    // Throws std::logic_error when there is no ok evaluation to scale the time axis.
    PlotMapping mapping(const QRectF& area) const;

    void paint(QPainter& p, const QRectF& area) const override;
    QString tooltip_at(const QPointF& pixel, const QRectF& area) const override;

  private:
    bool has_times() const;
    const TuningStep* step_at(const QPointF& pixel, const QRectF& area, const TuningTrace** trace) const;

    QString title_ = QStringLiteral("Tuning"), subtitle_;
    std::vector<TuningTrace> traces_;
    QString time_label_;
};

}  // namespace memwall::gui

// Shows a Chart and forwards the mouse to it: wheel zooms about the pointer, drag pans,
// hovering shows the tooltip, a click reports the case under the pointer, a double click
// resets the view.
#pragma once

#include <optional>

#include <QPoint>
#include <QWidget>

#include "gui/core/chart.hpp"

namespace memwall::gui {

class ChartWidget : public QWidget {
    Q_OBJECT
  public:
    explicit ChartWidget(Chart& chart, QWidget* parent = nullptr);
    Chart& chart() const { return chart_; }
    QSize sizeHint() const override { return {900, 600}; }

  signals:
    void caseClicked(qint64 case_id);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

  private:
    Chart& chart_;
    std::optional<QPointF> drag_from_;
    bool dragged_ = false;
};

}  // namespace memwall::gui

#include "gui/app/chart_widget.hpp"

#include <cmath>

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

namespace memwall::gui {

ChartWidget::ChartWidget(Chart& chart, QWidget* parent) : QWidget(parent), chart_(chart) {
    setMouseTracking(true);
    setMinimumSize(480, 320);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void ChartWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    chart_.paint(p, QRectF(rect()));
}

void ChartWidget::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0 && chart_.zoom(std::pow(1.2, steps), event->position(), QRectF(rect()))) update();
    event->accept();
}

void ChartWidget::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        drag_from_ = event->position();
        dragged_ = false;
    }
}

void ChartWidget::mouseMoveEvent(QMouseEvent* event) {
    if (drag_from_ && (event->buttons() & Qt::LeftButton)) {
        const QPointF delta = event->position() - *drag_from_;
        if (dragged_ || delta.manhattanLength() > 3) {
            dragged_ = true;
            if (chart_.pan(delta, QRectF(rect()))) update();
            drag_from_ = event->position();
        }
        return;
    }
    const QString tip = chart_.tooltip_at(event->position(), QRectF(rect()));
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
}

void ChartWidget::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !drag_from_) return;
    drag_from_.reset();
    if (dragged_) return;
    if (const auto id = chart_.case_at(event->position(), QRectF(rect()))) emit caseClicked(*id);
}

void ChartWidget::mouseDoubleClickEvent(QMouseEvent*) {
    chart_.reset_view();
    update();
}

}  // namespace memwall::gui

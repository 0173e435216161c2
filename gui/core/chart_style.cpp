#include "gui/core/chart_style.hpp"

#include <array>

#include <QFontMetricsF>
#include <QPolygonF>

namespace memwall::gui {

QColor series_colour(int index) {
    static constexpr std::array<QRgb, 12> kColours{0xff0072b2, 0xffe69f00, 0xff009e73, 0xffd55e00,
                                                   0xffcc79a7, 0xff56b4e9, 0xff8c564b, 0xff7f7f7f,
                                                   0xffbcbd22, 0xff17becf, 0xff9467bd, 0xfff0e442};
    const auto n = static_cast<int>(kColours.size());
    return QColor::fromRgb(kColours[static_cast<std::size_t>(((index % n) + n) % n)]);
}

Marker backend_marker(const QString& backend) {
    if (backend == QLatin1String("cpu")) return Marker::circle;
    if (backend == QLatin1String("cuda")) return Marker::square;
    if (backend == QLatin1String("cuda-emu")) return Marker::triangle;
    return Marker::diamond;
}

void draw_marker(QPainter& p, const QPointF& at, Marker m, const QColor& colour, bool filled, double size) {
    p.setPen(QPen(colour, filled ? 1.0 : 1.6));
    p.setBrush(filled ? QBrush(colour) : QBrush(Qt::white));
    const double r = size / 2;
    switch (m) {
        case Marker::circle: p.drawEllipse(at, r, r); break;
        case Marker::square: p.drawRect(QRectF(at.x() - r * 0.9, at.y() - r * 0.9, r * 1.8, r * 1.8)); break;
        case Marker::triangle:
            p.drawPolygon(QPolygonF({QPointF(at.x(), at.y() - r * 1.15), QPointF(at.x() + r, at.y() + r * 0.75),
                                     QPointF(at.x() - r, at.y() + r * 0.75)}));
            break;
        case Marker::diamond:
            p.drawPolygon(QPolygonF({QPointF(at.x(), at.y() - r * 1.2), QPointF(at.x() + r, at.y()),
                                     QPointF(at.x(), at.y() + r * 1.2), QPointF(at.x() - r, at.y())}));
            break;
    }
}

QFont chart_font(int pixel_size, bool bold) {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setStyleHint(QFont::SansSerif);
    f.setPixelSize(pixel_size);
    f.setBold(bold);
    return f;
}

ChartLayout chart_layout(const QRectF& area, bool with_legend, double legend_width) {
    ChartLayout l;
    const double title_h = 48, left = 84, bottom = 54, right = with_legend ? legend_width + 24 : 24, top_gap = 8;
    l.title = QRectF(area.left(), area.top(), area.width(), title_h);
    l.plot = QRectF(area.left() + left, area.top() + title_h + top_gap, area.width() - left - right,
                    area.height() - title_h - top_gap - bottom);
    if (l.plot.width() < 40) l.plot.setWidth(40);
    if (l.plot.height() < 40) l.plot.setHeight(40);
    if (with_legend) l.legend = QRectF(l.plot.right() + 16, l.plot.top(), legend_width, l.plot.height());
    return l;
}

void draw_background(QPainter& p, const QRectF& area) { p.fillRect(area, Qt::white); }

void draw_title(QPainter& p, const QRectF& band, const QString& title, const QString& subtitle) {
    p.save();
    p.setPen(Qt::black);
    p.setFont(chart_font(16, true));
    const QRectF inner = band.adjusted(12, 6, -12, 0);
    p.drawText(inner, Qt::AlignLeft | Qt::AlignTop, title);
    p.setFont(chart_font(11));
    p.setPen(QColor(80, 80, 80));
    const QFontMetricsF fm(p.font());
    p.drawText(inner.adjusted(0, 22, 0, 0), Qt::AlignLeft | Qt::AlignTop,
               fm.elidedText(subtitle, Qt::ElideRight, inner.width()));
    p.restore();
}

void draw_axes(QPainter& p, const PlotMapping& m, const QString& x_title, const QString& y_title,
               const std::function<QString(double)>& x_label, const std::function<QString(double)>& y_label,
               double x_min_step) {
    const QRectF& f = m.frame;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(QPen(QColor(238, 238, 238), 1));
    for (const double v : m.x.minor_ticks())
        p.drawLine(QPointF(m.x.to_pixel(v), f.top()), QPointF(m.x.to_pixel(v), f.bottom()));
    for (const double v : m.y.minor_ticks())
        p.drawLine(QPointF(f.left(), m.y.to_pixel(v)), QPointF(f.right(), m.y.to_pixel(v)));
    p.setPen(QPen(QColor(205, 205, 205), 1));
    const auto xt = m.x.ticks(8, x_min_step), yt = m.y.ticks();
    for (const double v : xt) p.drawLine(QPointF(m.x.to_pixel(v), f.top()), QPointF(m.x.to_pixel(v), f.bottom()));
    for (const double v : yt) p.drawLine(QPointF(f.left(), m.y.to_pixel(v)), QPointF(f.right(), m.y.to_pixel(v)));
    p.setPen(QPen(QColor(60, 60, 60), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(f);

    p.setFont(chart_font(11));
    p.setPen(QColor(40, 40, 40));
    for (const double v : xt) {
        const double x = m.x.to_pixel(v);
        p.drawLine(QPointF(x, f.bottom()), QPointF(x, f.bottom() + 4));
        p.drawText(QRectF(x - 40, f.bottom() + 6, 80, 16), Qt::AlignHCenter | Qt::AlignTop, x_label(v));
    }
    for (const double v : yt) {
        const double y = m.y.to_pixel(v);
        p.drawLine(QPointF(f.left() - 4, y), QPointF(f.left(), y));
        p.drawText(QRectF(f.left() - 66, y - 8, 60, 16), Qt::AlignRight | Qt::AlignVCenter, y_label(v));
    }
    p.setFont(chart_font(12, true));
    // Titles longer than their axis (a small window) end in an ellipsis rather than overflow.
    const QFontMetricsF metrics(p.font());
    p.drawText(QRectF(f.left(), f.bottom() + 26, f.width(), 20), Qt::AlignHCenter | Qt::AlignTop,
               metrics.elidedText(x_title, Qt::ElideRight, f.width()));
    p.translate(f.left() - 72, f.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-f.height() / 2, -10, f.height(), 20), Qt::AlignCenter,
               metrics.elidedText(y_title, Qt::ElideRight, f.height()));
    p.restore();
}

void draw_legend(QPainter& p, const QRectF& box, const std::vector<LegendEntry>& entries) {
    p.save();
    const double row = 15;
    double y = box.top() + 4;
    for (const LegendEntry& e : entries) {
        if (y + row > box.bottom()) {
            p.setFont(chart_font(11));
            p.setPen(QColor(80, 80, 80));
            p.drawText(QRectF(box.left(), y, box.width(), row), Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("…"));
            break;
        }
        const QPointF mark(box.left() + 10, y + row / 2);
        const QRectF text(box.left() + 24, y, box.width() - 24, row);
        switch (e.kind) {
            case LegendEntry::Kind::heading:
                if (y > box.top() + 4) y += 4;
                p.setFont(chart_font(11, true));
                p.setPen(Qt::black);
                p.drawText(QRectF(box.left(), y, box.width(), row), Qt::AlignLeft | Qt::AlignVCenter, e.text);
                y += row;
                continue;
            case LegendEntry::Kind::marker: draw_marker(p, mark, e.marker, e.colour, e.filled); break;
            case LegendEntry::Kind::line:
                p.setPen(QPen(e.colour, 2, e.line_style));
                p.drawLine(QPointF(box.left(), mark.y()), QPointF(box.left() + 20, mark.y()));
                break;
            case LegendEntry::Kind::swatch: p.fillRect(QRectF(box.left() + 3, y + 3, 14, row - 6), e.colour); break;
        }
        p.setFont(chart_font(11));
        p.setPen(QColor(30, 30, 30));
        const QFontMetricsF fm(p.font());
        p.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(e.text, Qt::ElideRight, text.width()));
        y += row;
    }
    p.restore();
}

void draw_note(QPainter& p, const QRectF& frame, const QString& text) {
    p.save();
    p.setFont(chart_font(13));
    p.setPen(QColor(110, 110, 110));
    p.drawText(frame, Qt::AlignCenter | Qt::TextWordWrap, text);
    p.restore();
}

}  // namespace memwall::gui

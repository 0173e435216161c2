// The look shared by the charts: fonts, series colours, marker shapes, layout of title, plot
// frame and legend, axes with ticks and titles, and the legend itself.
#pragma once

#include <functional>
#include <vector>

#include <QColor>
#include <QFont>
#include <QPainter>
#include <QRectF>
#include <QString>

#include "gui/core/axis_mapping.hpp"

namespace memwall::gui {

enum class Marker { circle, square, triangle, diamond };

// Colour-blind-safe qualitative palette (Okabe-Ito, then Tableau), cycled.
QColor series_colour(int index);
// Shape by backend: cpu circle, cuda square, cuda-emu triangle, anything else diamond.
Marker backend_marker(const QString& backend);
// Filled for measured figures, hollow (white inside) for modelled ones. Sets the painter's pen
// and brush (no save/restore: charts draw many thousands of markers).
void draw_marker(QPainter& p, const QPointF& at, Marker m, const QColor& colour, bool filled, double size = 8);

QFont chart_font(int pixel_size, bool bold = false);

struct ChartLayout {
    QRectF title;   // title and subtitle band
    QRectF plot;    // the frame inside the axes
    QRectF legend;  // right of the plot; empty when no legend
};
ChartLayout chart_layout(const QRectF& area, bool with_legend, double legend_width = 210);

void draw_background(QPainter& p, const QRectF& area);
void draw_title(QPainter& p, const QRectF& band, const QString& title, const QString& subtitle);

// Grid, frame, tick labels and axis titles for `m`; `label` formats a tick value.
// `x_min_step` keeps linear x ticks at least that far apart (1 for counts).
void draw_axes(QPainter& p, const PlotMapping& m, const QString& x_title, const QString& y_title,
               const std::function<QString(double)>& x_label, const std::function<QString(double)>& y_label,
               double x_min_step = 0);

struct LegendEntry {
    enum class Kind { heading, marker, line, swatch };
    Kind kind = Kind::marker;
    QString text;
    QColor colour = Qt::black;
    Marker marker = Marker::circle;
    bool filled = true;
    Qt::PenStyle line_style = Qt::SolidLine;
};
void draw_legend(QPainter& p, const QRectF& box, const std::vector<LegendEntry>& entries);

// A centred message in the plot frame ("no cases with ...").
void draw_note(QPainter& p, const QRectF& frame, const QString& text);

}  // namespace memwall::gui

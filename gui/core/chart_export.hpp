// Saves a chart as PNG or SVG, chosen by the file's extension, without a window.
#pragma once

#include <QImage>
#include <QSize>
#include <QString>

#include "gui/core/chart.hpp"

namespace memwall::gui {

// The chart painted on a white image of `size` pixels.
QImage render_chart(const Chart& chart, QSize size);

// Throws UsageError for an extension other than .png or .svg, EnvironmentError when the file
// cannot be written; the file is replaced whole or not at all.
void save_chart(const Chart& chart, const QString& path, QSize size = QSize(1200, 800));

}  // namespace memwall::gui

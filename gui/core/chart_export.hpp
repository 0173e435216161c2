// Saves a chart as PNG or SVG, chosen by the file's extension, without a window.
#pragma once

#include <QImage>
#include <QSize>
#include <QString>

#include "gui/core/chart.hpp"

namespace memwall::gui {

// The chart painted on a white image of `size` pixels.
QImage render_chart(const Chart& chart, QSize size);

// Throws UsageError for an extension other than .png or .svg, InputError when the file
// cannot be written.
void save_chart(const Chart& chart, const QString& path, QSize size = QSize(1200, 800));

}  // namespace memwall::gui

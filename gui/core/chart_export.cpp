#include "gui/core/chart_export.hpp"

#include <QFileInfo>
#include <QPainter>
#include <QSvgGenerator>

#include "core/errors.hpp"

namespace memwall::gui {

QImage render_chart(const Chart& chart, QSize size) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter p(&image);
    chart.paint(p, QRectF(QPointF(0, 0), QSizeF(size)));
    p.end();
    return image;
}

void save_chart(const Chart& chart, const QString& path, QSize size) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png")) {
        if (!render_chart(chart, size).save(path, "PNG"))
            throw InputError(path.toStdString() + ": cannot write the PNG");
        return;
    }
    if (suffix != QLatin1String("svg"))
        throw UsageError(path.toStdString() + ": the chart file must end in .png or .svg");
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setResolution(96);
    svg.setTitle(QStringLiteral("memwall chart"));
    QPainter p;
    if (!p.begin(&svg)) throw InputError(path.toStdString() + ": cannot write the SVG");
    chart.paint(p, QRectF(QPointF(0, 0), QSizeF(size)));
    p.end();
}

}  // namespace memwall::gui

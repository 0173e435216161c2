#include "gui/core/chart_export.hpp"

#include <QFileInfo>
#include <QPainter>
#include <QSvgGenerator>

#include "core/errors.hpp"
#include "core/output_file.hpp"

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
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        throw UsageError(path.toStdString() + ": the chart file must end in .png or .svg");
    OutputFile out(path.toStdString());
    const QString temporary = QString::fromStdString(out.temporary_path());
    if (suffix == QLatin1String("png")) {
        if (!render_chart(chart, size).save(temporary, "PNG"))
            throw EnvironmentError(path.toStdString() + ": cannot write the PNG");
        out.commit();
        return;
    }
    {
        QSvgGenerator svg;
        svg.setFileName(temporary);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setResolution(96);
        svg.setTitle(QStringLiteral("memwall chart"));
        QPainter p;
        if (!p.begin(&svg)) throw EnvironmentError(path.toStdString() + ": cannot write the SVG");
        chart.paint(p, QRectF(QPointF(0, 0), QSizeF(size)));
        p.end();
    }  // the generator closes its file
    out.commit();
}

}  // namespace memwall::gui

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

#include "fixtures.hpp"
#include "gui/core/chart_export.hpp"
#include "gui/core/roofline_chart.hpp"
#include "core/errors.hpp"

using namespace memwall;
using namespace memwall::gui;

class ChartExportTest : public QObject {
    Q_OBJECT
  private slots:
    void png_and_svg_by_extension() {
        const std::vector<CaseRow> rows{test::row({})};
        RooflineChart chart;
        chart.set_ceilings(test::ceilings());
        chart.set_cases(test::ptrs(rows));
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("r.png")), svg = dir.filePath(QStringLiteral("r.SVG"));
        save_chart(chart, png, QSize(800, 500));
        QImage img;
        QVERIFY(img.load(png));
        QCOMPARE(img.size(), QSize(800, 500));
        save_chart(chart, svg, QSize(800, 500));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("DRAM"));  // the roofs' labels are text, not pixels
        QVERIFY(text.contains("Arithmetic intensity"));
    }
    void refusals() {
        RooflineChart chart;
        QTemporaryDir dir;
        QVERIFY_THROWS_EXCEPTION(UsageError, save_chart(chart, dir.filePath(QStringLiteral("r.jpg"))));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("r.jpg"))));
        QVERIFY_THROWS_EXCEPTION(EnvironmentError,
                                 save_chart(chart, dir.filePath(QStringLiteral("no/such/dir/r.png"))));
        QVERIFY_THROWS_EXCEPTION(EnvironmentError,
                                 save_chart(chart, dir.filePath(QStringLiteral("no/such/dir/r.svg"))));
    }
};

QTEST_MAIN(ChartExportTest)
#include "chart_export_test.moc"

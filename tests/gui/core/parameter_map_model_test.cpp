#include <QAbstractItemModelTester>
#include <QTest>

#include "fixtures.hpp"
#include "gui/core/heatmap_chart.hpp"
#include "gui/core/parameter_map_model.hpp"

using namespace memwall;
using namespace memwall::gui;

class ParameterMapModelTest : public QObject {
    Q_OBJECT
  private slots:
    void grid_as_a_table() {
        std::vector<CaseRow> rows;
        std::int64_t id = 1;
        for (const int br : {16, 32})
            for (const int bc : {32, 64, 128})
                rows.push_back(
                    test::row({.id = id++,
                               .config = "{\"Bc\":" + std::to_string(bc) + ",\"Br\":" + std::to_string(br) + "}",
                               .median = (br + bc) * 1e-5}));
        ParameterMapModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.set_map(
            build_parameter_map(test::ptrs(rows), QStringLiteral("Bc"), QStringLiteral("Br"), MapMetric::time));
        QCOMPARE(model.rowCount(), 2);     // Br
        QCOMPARE(model.columnCount(), 3);  // Bc
        QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("Bc=128"));
        QCOMPARE(model.headerData(1, Qt::Vertical).toString(), QStringLiteral("Br=32"));
        const QModelIndex best = model.index(0, 0);
        QVERIFY(model.data(best, ParameterMapModel::BestRole).toBool());
        QCOMPARE(model.data(best).toString(), QStringLiteral("480 µs ★"));
        QCOMPARE(model.data(model.index(1, 2)).toString(), QStringLiteral("1.6 ms"));
        QCOMPARE(model.data(model.index(1, 2), ParameterMapModel::ValueRole).toDouble(), 1.6e-3);
        QCOMPARE(model.data(best, Qt::BackgroundRole).value<QColor>(), viridis(1));
        QCOMPARE(model.data(model.index(1, 2), Qt::BackgroundRole).value<QColor>(), viridis(0));
        QVERIFY(model.data(best, Qt::ToolTipRole).toString().contains(QStringLiteral("Bc=32")));
        model.set_map({});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(ParameterMapModelTest)
#include "parameter_map_model_test.moc"

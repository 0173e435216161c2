#include <cmath>

#include <QAbstractItemModelTester>
#include <QTest>

#include "gui/core/tuning_model.hpp"

using namespace memwall::gui;

class TuningModelTest : public QObject {
    Q_OBJECT
private slots:
    void one_row_per_evaluation() {
        TuningModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.set_traces({make_trace(QStringLiteral("conv"), QStringLiteral("random"), {2e-3, std::nan(""), 1e-3}),
                          make_trace(QStringLiteral("conv"), QStringLiteral("guided"), {1.5e-3})});
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), int(TuningModel::ColumnCount));
        const auto cell = [&](int row, int col, int role = Qt::DisplayRole) { return model.data(model.index(row, col), role); };
        QCOMPARE(cell(1, TuningModel::Time).toString(), QStringLiteral("failed"));
        QCOMPARE(cell(1, TuningModel::BestSoFar).toString(), QStringLiteral("2 ms"));
        QCOMPARE(cell(2, TuningModel::Evaluation).toInt(), 3);
        QCOMPARE(cell(3, TuningModel::Strategy).toString(), QStringLiteral("guided"));
        QVERIFY(std::isinf(cell(1, TuningModel::Time, TuningModel::SortRole).toDouble()));
        QCOMPARE(model.headerData(TuningModel::BestSoFar, Qt::Horizontal).toString(), QStringLiteral("Best so far"));
        model.set_traces({});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TuningModelTest)
#include "tuning_model_test.moc"

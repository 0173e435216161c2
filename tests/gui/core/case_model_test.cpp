#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include "fixtures.hpp"
#include "gui/core/case_model.hpp"

using namespace memwall;
using namespace memwall::gui;

class CaseModelTest : public QObject {
    Q_OBJECT
  private slots:
    void append_in_pages_then_clear() {
        CaseModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy values(&model, &CaseModel::valuesChanged);
        model.append({test::row({.id = 10}), test::row({.id = 11, .variant = "naive"})});
        QCOMPARE(values.count(), 1);
        const CaseRow* first = &model.row(0);
        model.append({test::row({.id = 12, .variant = "naive"})});
        QCOMPARE(values.count(), 1);  // nothing new
        model.append({test::row({.id = 13, .backend = "cuda-emu", .median = 0, .status = CaseStatus::failed})});
        QCOMPARE(values.count(), 2);
        QCOMPARE(&model.row(0), first);  // rows stay put while pages arrive
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.row_of(12), 2);
        QCOMPARE(model.row_of(99), -1);
        QCOMPARE(model.values(CaseField::variant), (QStringList{QStringLiteral("flash"), QStringLiteral("naive")}));
        QCOMPARE(model.values(CaseField::status), (QStringList{QStringLiteral("failed"), QStringLiteral("ok")}));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(model.values(CaseField::family).isEmpty());
    }
    void cells_show_figures_with_units_and_sources() {
        CaseModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.append(
            {test::row({.id = 1, .median = 2e-3, .flops = 2e8, .dram_bytes = 1e7, .source = CounterSource::emu}),
             test::row({.id = 2, .median = 0, .status = CaseStatus::wrong_result})});
        const auto cell = [&](int row, int col, int role = Qt::DisplayRole) {
            return model.data(model.index(row, col), role);
        };
        QCOMPARE(cell(0, CaseModel::Time).toString(), QStringLiteral("2 ms"));
        QCOMPARE(cell(0, CaseModel::FlopRate).toString(), QStringLiteral("100.00"));  // GFLOP/s
        QCOMPARE(cell(0, CaseModel::ByteRate).toString(), QStringLiteral("5.00"));    // GB/s
        QCOMPARE(cell(0, CaseModel::Intensity).toString(), QStringLiteral("20"));
        QCOMPARE(cell(0, CaseModel::Bound).toString(), QStringLiteral("compute"));
        QCOMPARE(cell(0, CaseModel::PercentOfRoof).toString(), QStringLiteral("50.0"));  // of the 200 GFLOP/s peak
        QCOMPARE(cell(0, CaseModel::BytesSource).toString(), QStringLiteral("emu:dram"));
        QCOMPARE(cell(0, 0, CaseModel::CaseIdRole).toLongLong(), 1);
        QVERIFY(cell(0, CaseModel::Time, Qt::ToolTipRole).toString().contains(QStringLiteral("(emu)")));
        // An untimed case shows no figures and sorts after every timed one.
        QCOMPARE(cell(1, CaseModel::Time).toString(), QString());
        QCOMPARE(cell(1, CaseModel::Status).toString(), QStringLiteral("wrong_result"));
        QVERIFY(cell(1, CaseModel::Time, CaseModel::SortRole).toDouble() >
                cell(0, CaseModel::Time, CaseModel::SortRole).toDouble());
        QCOMPARE(model.headerData(CaseModel::PercentOfRoof, Qt::Horizontal).toString(), QStringLiteral("% of roof"));
    }
};

QTEST_GUILESS_MAIN(CaseModelTest)
#include "case_model_test.moc"

#include <QAbstractItemModelTester>
#include <QTest>

#include "fixtures.hpp"
#include "gui/core/run_model.hpp"

using namespace memwall;
using namespace memwall::gui;

class RunModelTest : public QObject {
    Q_OBJECT
  private slots:
    void rows_columns_and_roles() {
        RunModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        RunRow a;
        a.info.id = 3;
        a.info.started_at = "2024-05-01T12:34:56.789Z";
        a.info.host = "box";
        a.info.device = "AMD EPYC, 2 threads";
        a.info.backend = "cpu";
        a.info.command_line = "memwall run";
        a.info.status = RunStatus::complete;
        a.info.tags = {{"branch", "main"}, {"ci", "1"}};
        a.cases = 24;
        RunRow b = a;
        b.info.id = 4;
        b.info.tags.clear();
        model.set_runs({a, b});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(RunModel::ColumnCount));
        const auto cell = [&](int row, int col, int role = Qt::DisplayRole) {
            return model.data(model.index(row, col), role);
        };
        QCOMPARE(cell(0, RunModel::Started).toString(), QStringLiteral("2024-05-01 12:34:56"));
        QCOMPARE(cell(0, RunModel::Started, RunModel::SortRole).toString(), QStringLiteral("2024-05-01T12:34:56.789Z"));
        QCOMPARE(cell(0, RunModel::Tags).toString(), QStringLiteral("branch=main, ci=1"));
        QCOMPARE(cell(0, RunModel::Cases).toULongLong(), 24ull);
        QCOMPARE(cell(0, RunModel::Status).toString(), QStringLiteral("complete"));
        QCOMPARE(cell(1, 0, RunModel::RunIdRole).toLongLong(), 4);
        QVERIFY(cell(0, 0, Qt::ToolTipRole).toString().contains(QStringLiteral("memwall run")));
        QCOMPARE(model.headerData(RunModel::Host, Qt::Horizontal).toString(), QStringLiteral("Host"));
        QVERIFY(model.run(4));
        QVERIFY(!model.run(5));
        QVERIFY(run_title(a.info).contains(QStringLiteral("branch=main")));
        model.set_runs({});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(RunModelTest)
#include "run_model_test.moc"

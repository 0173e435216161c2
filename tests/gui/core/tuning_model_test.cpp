#include <cmath>

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>

#include "fixtures.hpp"
#include "gui/core/tuning_model.hpp"

using namespace memwall;
using namespace memwall::gui;

class TuningModelTest : public QObject {
    Q_OBJECT
  private slots:
    void one_row_per_evaluation() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Store store = Store::open(dir.filePath(QStringLiteral("t.db")).toStdString(), Store::Mode::create);
        const std::int64_t random =
            test::add_session(store, test::replay_session("random", 7), {2e-3, std::nullopt, 1e-3});
        test::add_session(store, test::replay_session("guided", 1), {1.5e-3});
        const auto studies = tuning_studies(tuning_sessions(store));
        QCOMPARE(studies.size(), std::size_t(1));

        TuningModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.set_traces(study_traces(store, studies.front()));
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), int(TuningModel::ColumnCount));
        const auto cell = [&](int row, int col, int role = Qt::DisplayRole) {
            return model.data(model.index(row, col), role);
        };
        QCOMPARE(cell(0, TuningModel::Session).toString(), QStringLiteral("%1 (seed 7)").arg(random));
        QCOMPARE(cell(1, TuningModel::Configuration).toString(), QStringLiteral("Br=32"));
        QCOMPARE(cell(1, TuningModel::Time).toString(), QStringLiteral("runtime_failed"));
        QCOMPARE(cell(1, TuningModel::Time, Qt::ToolTipRole).toString(),
                 QStringLiteral("runtime_failed: too many resources requested"));
        QCOMPARE(cell(1, TuningModel::BestSoFar).toString(), QStringLiteral("2 ms"));
        QCOMPARE(cell(2, TuningModel::Evaluation).toInt(), 3);
        QCOMPARE(cell(3, TuningModel::Strategy).toString(), QStringLiteral("guided"));
        QVERIFY(std::isinf(cell(1, TuningModel::Time, TuningModel::SortRole).toDouble()));
        QCOMPARE(model.headerData(TuningModel::BestSoFar, Qt::Horizontal).toString(), QStringLiteral("Best so far"));

        QSortFilterProxyModel sorted;
        sorted.setSourceModel(&model);
        sorted.setSortRole(TuningModel::SortRole);
        QAbstractItemModelTester sorted_tester(&sorted, QAbstractItemModelTester::FailureReportingMode::QtTest);
        sorted.sort(TuningModel::Time);
        QCOMPARE(sorted.data(sorted.index(0, TuningModel::Time)).toString(), QStringLiteral("1 ms"));
        model.set_traces({});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TuningModelTest)
#include "tuning_model_test.moc"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

#include "fixtures.hpp"
#include "gui/core/compare_model.hpp"

using namespace memwall;
using namespace memwall::gui;

namespace {

RunRow run(std::int64_t id) {
    RunRow r;
    r.info.id = id;
    r.info.device = "cpu0";
    r.info.backend = "cpu";
    r.info.status = RunStatus::complete;
    return r;
}

Repetitions reps(double seconds) {
    Repetitions r;
    for (int i = 0; i < 5; ++i) r.push_back({seconds, seconds * 1.001, seconds * 0.999, seconds * 1.002});
    return r;
}

}  // namespace

class CompareModelTest : public QObject {
    Q_OBJECT
  private slots:
    void table_of_changes_intervals_and_verdicts() {
        const std::vector<CaseRow> base{test::row({.id = 1, .problem = R"({"seq":1})", .median = 1e-3}),
                                        test::row({.id = 2, .problem = R"({"seq":2})", .median = 2e-3})};
        const std::vector<CaseRow> cand{test::row({.id = 11, .run = 2, .problem = R"({"seq":1})", .median = 0.5e-3}),
                                        test::row({.id = 13, .run = 2, .problem = R"({"seq":3})", .median = 1e-3})};
        const SampleMap bs{{1, reps(1e-3)}, {2, reps(2e-3)}}, cs{{11, reps(0.5e-3)}, {13, reps(1e-3)}};
        CompareOptions options;
        options.alpha = 0.01;
        const auto comparison = compare_sides(compare_side("t.db", run(1), test::ptrs(base)),
                                              compare_side("t.db", run(2), test::ptrs(cand)), options, bs, cs, {}, {});
        CompareModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.set_rows(compare_rows(comparison->cases, test::ptrs(base), test::ptrs(cand)), options);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(CompareModel::ColumnCount));
        const auto cell = [&](int row, int col, int role = Qt::DisplayRole) {
            return model.data(model.index(row, col), role);
        };
        QCOMPARE(cell(0, CompareModel::Baseline).toString(), QStringLiteral("1 ms"));
        QCOMPARE(cell(0, CompareModel::Candidate).toString(), QStringLiteral("500 µs"));
        QCOMPARE(cell(0, CompareModel::Change).toString(), QStringLiteral("-50.0%"));
        QVERIFY(cell(0, CompareModel::Interval).toString().startsWith(QStringLiteral("[-50.")));
        QVERIFY(cell(0, CompareModel::PValue).toString().toDouble() < 0.01);
        QCOMPARE(cell(0, CompareModel::VerdictColumn).toString(), QStringLiteral("FASTER"));
        QCOMPARE(cell(0, CompareModel::VerdictColumn, Qt::ForegroundRole).value<QColor>(),
                 verdict_colour(Verdict::faster));
        QVERIFY(cell(0, CompareModel::Change, Qt::ToolTipRole).toString().contains(QStringLiteral("99% CI beyond")));
        QCOMPARE(model.headerData(CompareModel::Interval, Qt::Horizontal).toString(), QStringLiteral("99% CI"));
        QCOMPARE(cell(0, 0, CompareModel::CaseIdRole).toLongLong(), 11);
        QCOMPARE(cell(1, 0, CompareModel::CaseIdRole).toLongLong(), 2);  // only in the baseline
        QCOMPARE(cell(1, CompareModel::Candidate).toString(), QString());
        QCOMPARE(cell(1, CompareModel::Change).toString(), QString());
        QCOMPARE(cell(1, CompareModel::VerdictColumn).toString(), QStringLiteral("only in baseline"));
        QCOMPARE(model.count(Verdict::faster), std::size_t(1));
        QCOMPARE(model.unmatched(), std::size_t(2));

        QSortFilterProxyModel sorted;
        sorted.setSourceModel(&model);
        sorted.setSortRole(CompareModel::SortRole);
        QAbstractItemModelTester sorted_tester(&sorted, QAbstractItemModelTester::FailureReportingMode::QtTest);
        sorted.sort(CompareModel::Change, Qt::DescendingOrder);
        // Unmatched rows have no change and sort as infinitely slow.
        QCOMPARE(sorted.data(sorted.index(2, CompareModel::Change)).toString(), QStringLiteral("-50.0%"));
        sorted.sort(CompareModel::VerdictColumn, Qt::AscendingOrder);  // worst first, unmatched last
        QCOMPARE(sorted.data(sorted.index(0, CompareModel::VerdictColumn)).toString(), QStringLiteral("FASTER"));
        model.set_rows({});
        QCOMPARE(sorted.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(CompareModelTest)
#include "compare_model_test.moc"

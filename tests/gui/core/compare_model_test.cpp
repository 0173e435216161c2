#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

#include "fixtures.hpp"
#include "gui/core/compare_model.hpp"

using namespace memwall;
using namespace memwall::gui;

class CompareModelTest : public QObject {
    Q_OBJECT
private slots:
    void table_of_ratios_and_verdicts() {
        const std::vector<CaseRow> base{test::row({.id = 1, .problem = R"({"seq":1})", .median = 1e-3}),
                                        test::row({.id = 2, .problem = R"({"seq":2})", .median = 2e-3})};
        const std::vector<CaseRow> cand{test::row({.id = 11, .run = 2, .problem = R"({"seq":1})", .median = 0.5e-3}),
                                        test::row({.id = 13, .run = 2, .problem = R"({"seq":3})", .median = 1e-3})};
        CompareModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.set_rows(compare_cases(test::ptrs(base), test::ptrs(cand)));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(CompareModel::ColumnCount));
        const auto cell = [&](int row, int col, int role = Qt::DisplayRole) { return model.data(model.index(row, col), role); };
        QCOMPARE(cell(0, CompareModel::Baseline).toString(), QStringLiteral("1 ms"));
        QCOMPARE(cell(0, CompareModel::Candidate).toString(), QStringLiteral("500 µs"));
        QCOMPARE(cell(0, CompareModel::Ratio).toString(), QStringLiteral("0.500×"));
        QCOMPARE(cell(0, CompareModel::VerdictColumn).toString(), QStringLiteral("faster"));
        QCOMPARE(cell(0, CompareModel::VerdictColumn, Qt::ForegroundRole).value<QColor>(), verdict_colour(Verdict::faster));
        QCOMPARE(cell(0, 0, CompareModel::CaseIdRole).toLongLong(), 11);
        QCOMPARE(cell(1, 0, CompareModel::CaseIdRole).toLongLong(), 2);  // only in the baseline
        QCOMPARE(cell(1, CompareModel::Candidate).toString(), QString());
        QCOMPARE(model.count(Verdict::faster), std::size_t(1));
        QCOMPARE(model.count(Verdict::only_candidate), std::size_t(1));

        QSortFilterProxyModel sorted;
        sorted.setSourceModel(&model);
        sorted.setSortRole(CompareModel::SortRole);
        QAbstractItemModelTester sorted_tester(&sorted, QAbstractItemModelTester::FailureReportingMode::QtTest);
        sorted.sort(CompareModel::Ratio, Qt::DescendingOrder);
        // Unmatched rows have no ratio and sort as infinitely slow.
        QCOMPARE(sorted.data(sorted.index(2, CompareModel::Ratio)).toString(), QStringLiteral("0.500×"));
        model.set_rows({});
        QCOMPARE(sorted.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(CompareModelTest)
#include "compare_model_test.moc"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "gui/core/comparer.hpp"
#include "gui/core/plot.hpp"
#include "tests/support/synthetic_results.hpp"

using namespace memwall;
using namespace memwall::gui;

class ComparerTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        db_ = dir_.filePath(QStringLiteral("c.db"));
        write_synthetic_run(db_.toStdString(), 300, 1, "base");
        write_synthetic_run(db_.toStdString(), 300, 2, "candidate");
        const ResultsReader reader(db_.toStdString());
        runs_ = reader.runs();
        base_ = reader.cases(1, runs_[0].ceilings);
        cand_ = reader.cases(2, runs_[1].ceilings);
    }

    void compares_in_the_background() {
        Comparer comparer;
        comparer.set_database(db_);
        QSignalSpy progress(&comparer, &Comparer::progress);
        std::optional<RunComparison> got;
        connect(&comparer, &Comparer::finished, this, [&](std::shared_ptr<RunComparison> c) { got = *c; });
        comparer.start(runs_[0], pointers(base_), runs_[1], pointers(cand_), CompareOptions{});
        QVERIFY(comparer.busy());
        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 20000);
        QVERIFY(!comparer.busy());
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.back().at(0).toLongLong(), 600);
        // The same as comparing now.
        const RunComparison now = compare_now(ResultsReader(db_.toStdString()), runs_[0], pointers(base_), runs_[1],
                                              pointers(cand_), CompareOptions{});
        QCOMPARE(got->cases.size(), now.cases.size());
        for (std::size_t i = 0; i < now.cases.size(); ++i) {
            QCOMPARE(got->cases[i].candidate_id, now.cases[i].candidate_id);
            QCOMPARE(got->cases[i].result.verdict, now.cases[i].result.verdict);
            QCOMPARE(got->cases[i].result.ci.lo, now.cases[i].result.ci.lo);
        }

        // The samples are kept: the next comparison of these runs reads nothing.
        QVERIFY(QFile::rename(db_, db_ + QStringLiteral(".moved")));
        got.reset();
        std::vector<const CaseRow*> some = pointers(cand_);
        some.resize(50);
        comparer.start(runs_[0], pointers(base_), runs_[1], some, CompareOptions{});
        QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 20000);
        QVERIFY(QFile::rename(db_ + QStringLiteral(".moved"), db_));
        QCOMPARE(got->cases.size(), std::size_t(300));  // 50 matched, 250 only in the baseline

        // A new database forgets them, and failures arrive as a message.
        QSignalSpy failed(&comparer, &Comparer::failed);
        comparer.set_database(dir_.filePath(QStringLiteral("missing.db")));
        comparer.start(runs_[0], pointers(base_), runs_[1], pointers(cand_), CompareOptions{});
        QVERIFY(failed.wait(20000));
        QVERIFY(failed.front().front().toString().contains(QStringLiteral("missing.db")));
    }

    void a_cancelled_comparison_stays_silent() {
        Comparer comparer;
        comparer.set_database(db_);
        QSignalSpy finished(&comparer, &Comparer::finished), failed(&comparer, &Comparer::failed);
        comparer.start(runs_[0], pointers(base_), runs_[1], pointers(cand_), CompareOptions{});
        comparer.cancel();
        QVERIFY(!comparer.busy());
        QTest::qWait(300);
        QCOMPARE(finished.size() + failed.size(), 0);
    }

  private:
    QTemporaryDir dir_;
    QString db_;
    std::vector<RunRow> runs_;
    std::vector<CaseRow> base_, cand_;
};

QTEST_GUILESS_MAIN(ComparerTest)
#include "comparer_test.moc"

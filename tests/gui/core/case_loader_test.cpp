#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "gui/core/case_loader.hpp"
#include "gui/core/results_reader.hpp"
#include "tests/support/synthetic_results.hpp"

using namespace memwall::gui;

class CaseLoaderTest : public QObject {
    Q_OBJECT
  private slots:
    void loads_every_run_in_pages() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("l.db"));
        write_synthetic_run(path.toStdString(), 2500, 1);
        write_synthetic_run(path.toStdString(), 300, 2);
        const auto runs = ResultsReader(path.toStdString()).runs();
        CaseLoader loader;
        std::vector<CaseRow> rows;
        int pages = 0;
        connect(&loader, &CaseLoader::pageLoaded, this, [&](const std::vector<CaseRow>& page) {
            ++pages;
            rows.insert(rows.end(), page.begin(), page.end());
        });
        QSignalSpy finished(&loader, &CaseLoader::finished);
        loader.start(path, runs, 1000);
        QVERIFY(loader.busy());
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.front().front().toLongLong(), 2800);
        QCOMPARE(rows.size(), std::size_t(2800));
        QCOMPARE(pages, 4);  // 1000, 1000, 500 of the first run; 300 of the second
        QCOMPARE(rows.back().run_id, runs[1].info.id);
        QVERIFY(!loader.busy());
    }
    void cancel_stops_every_signal() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.db"));
        write_synthetic_run(path.toStdString(), 3000, 1);
        const auto runs = ResultsReader(path.toStdString()).runs();
        CaseLoader loader;
        int pages = 0;
        connect(&loader, &CaseLoader::pageLoaded, this, [&pages] { ++pages; });
        QSignalSpy finished(&loader, &CaseLoader::finished);
        loader.start(path, runs, 100);
        loader.cancel();
        QVERIFY(!loader.busy());
        QTest::qWait(200);  // queued deliveries of the cancelled load, if any, arrive now
        QCOMPARE(pages, 0);
        QCOMPARE(finished.count(), 0);
    }
    void a_bad_file_fails_with_a_message() {
        QTemporaryDir dir;
        RunRow run;
        run.info.id = 1;
        CaseLoader loader;
        QSignalSpy failed(&loader, &CaseLoader::failed);
        loader.start(dir.filePath(QStringLiteral("gone.db")), {run});
        QVERIFY(failed.wait(5000));
        QVERIFY(failed.front().front().toString().contains(QStringLiteral("no such file")));
    }
};

QTEST_GUILESS_MAIN(CaseLoaderTest)
#include "case_loader_test.moc"

#include <sqlite3.h>

#include <QTemporaryDir>
#include <QTest>

#include "gui/core/results_reader.hpp"
#include "tests/support/synthetic_results.hpp"
#include "core/errors.hpp"

using namespace memwall;
using namespace memwall::gui;

namespace {

void exec(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
}

// The message of the InputError that opening `path` throws; empty when it opens.
QString open_error(const std::string& path) {
    try {
        ResultsReader reader(path);
    } catch (const InputError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

}  // namespace

class ResultsReaderTest : public QObject {
    Q_OBJECT
  private slots:
    void runs_and_pages() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("r.db").toStdString();
        write_synthetic_run(path, 250, 1, "first");
        const std::int64_t second = write_synthetic_run(path, 40, 2, "second");
        const ResultsReader reader(path);
        const auto runs = reader.runs();
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(runs[1].info.id, second);
        QCOMPARE(runs[0].cases, std::size_t(250));
        QCOMPARE(runs[1].info.tags.at("data"), std::string("second"));
        QVERIFY(runs[0].ceilings.find("dram"));

        std::vector<CaseRow> all;
        std::int64_t after = 0;
        int pages = 0;
        for (;;) {
            auto page = reader.cases(runs[0].info.id, runs[0].ceilings, after, 100);
            if (page.empty()) break;
            ++pages;
            after = page.back().id;
            all.insert(all.end(), page.begin(), page.end());
        }
        QCOMPARE(pages, 3);
        QCOMPARE(all.size(), std::size_t(250));
        for (std::size_t i = 1; i < all.size(); ++i) QVERIFY(all[i - 1].id < all[i].id);
        for (const CaseRow& c : all) {
            QCOMPARE(c.run_id, runs[0].info.id);
            QVERIFY(c.timed());
            QVERIFY(c.point.valid);  // counters of the page reached their case
            QVERIFY(!c.params.empty());
        }
        // cuda-emu cases carry emu-measured bytes.
        const auto emu = std::find_if(all.begin(), all.end(),
                                      [](const CaseRow& c) { return c.backend == QLatin1String("cuda-emu"); });
        QVERIFY(emu != all.end());
        QCOMPARE(emu->point.bytes_source, CounterSource::emu);
        QCOMPARE(reader.cases(second, runs[1].ceilings).size(), std::size_t(40));
    }
    void refuses_bad_files_with_one_line() {
        QTemporaryDir dir;
        const std::string missing = dir.filePath("missing.db").toStdString();
        QVERIFY(open_error(missing).contains(QStringLiteral("no such file")));

        const std::string foreign = dir.filePath("foreign.db").toStdString();
        exec(foreign, "CREATE TABLE t (x); PRAGMA application_id = 42;");
        QVERIFY(open_error(foreign).contains(QStringLiteral("not a memwall database")));

        const std::string newer = dir.filePath("newer.db").toStdString();
        write_synthetic_run(newer, 1);
        exec(newer, "PRAGMA user_version = 99;");
        QVERIFY(open_error(newer).contains(QStringLiteral("newer memwall")));

        const std::string text = dir.filePath("text.db").toStdString();
        QFile f(QString::fromStdString(text));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("hello, not a database at all\n");
        f.close();
        const QString e = open_error(text);
        QVERIFY(e.contains(QStringLiteral("not a SQLite database")));
        QVERIFY(!e.contains(QLatin1Char('\n')));
    }
};

QTEST_GUILESS_MAIN(ResultsReaderTest)
#include "results_reader_test.moc"

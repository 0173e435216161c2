// `memwall plot` end to end: every chart from a database, and refusals with exit status 2,
// one line on stderr and no file written.
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "core/fixtures.hpp"
#include "tests/support/synthetic_results.hpp"

using namespace memwall::gui;

namespace {

struct Result {
    int status = -1;
    QString err;
};

Result plot(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(MEMWALL_BINARY), args);
    if (!p.waitForFinished(60000)) return {};
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardError())};
}

}  // namespace

class PlotCommandTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        db_ = dir_.filePath(QStringLiteral("p.db"));
        write_synthetic_run(db_.toStdString(), 400, 1, "main");
        write_synthetic_run(db_.toStdString(), 400, 2, "feature");
        memwall::Store store = memwall::Store::open(db_.toStdString(), memwall::Store::Mode::read_write);
        test::add_session(store, test::replay_session("random", 1), {3e-3, 2e-3});
        test::add_session(store, test::replay_session("guided", 1), {2e-3, 1e-3});
    }
    void every_chart_as_png_and_svg() {
        for (const char* kind : {"roofline", "compare", "heatmap", "tuning"}) {
            for (const char* ext : {"png", "svg"}) {
                const QString out = dir_.filePath(QStringLiteral("%1.%2").arg(QLatin1String(kind), QLatin1String(ext)));
                const Result r = plot({QStringLiteral("--db"), db_, QStringLiteral("plot"), QLatin1String(kind),
                                       QStringLiteral("--out"), out});
                QVERIFY2(r.status == 0, qPrintable(r.err));
                QVERIFY2(r.err.isEmpty(), qPrintable(r.err));  // Qt's notes stay quiet
                QVERIFY(QFile::exists(out));
            }
        }
        QImage img;
        QVERIFY(img.load(dir_.filePath(QStringLiteral("roofline.png"))));
        QCOMPARE(img.size(), QSize(1200, 800));
    }
    void options_reach_the_chart() {
        const QString out = dir_.filePath(QStringLiteral("small.png"));
        const Result r =
            plot({QStringLiteral("--db"), db_, QStringLiteral("plot"), QStringLiteral("heatmap"),
                  QStringLiteral("--run"), QStringLiteral("data=main"), QStringLiteral("--kernel"),
                  QStringLiteral("attention/flash/cpu"), QStringLiteral("--x"), QStringLiteral("Br"),
                  QStringLiteral("--y"), QStringLiteral("seq_q"), QStringLiteral("--metric"), QStringLiteral("roof"),
                  QStringLiteral("--size"), QStringLiteral("640x480"), QStringLiteral("--out"), out});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QImage img;
        QVERIFY(img.load(out));
        QCOMPARE(img.size(), QSize(640, 480));
        for (const QStringList& args :
             {QStringList{QStringLiteral("compare"), QStringLiteral("--threshold"), QStringLiteral("0.1"),
                          QStringLiteral("--alpha"), QStringLiteral("0.01")},
              QStringList{QStringLiteral("tuning"), QStringLiteral("--session"), QStringLiteral("a100")}}) {
            const QString file = dir_.filePath(args.front() + QStringLiteral("-options.svg"));
            const Result o = plot(QStringList{QStringLiteral("--db"), db_, QStringLiteral("plot")} + args +
                                  QStringList{QStringLiteral("--out"), file});
            QVERIFY2(o.status == 0, qPrintable(o.err));
            QVERIFY(QFile::exists(file));
        }
    }
    // Runs imported from another harness (nvbench here) plot as any other: roofline and compare.
    void imported_runs_plot() {
        const QString db = dir_.filePath(QStringLiteral("imported.db"));
        for (int i = 0; i < 2; ++i) {
            const Result r = plot({QStringLiteral("--db"), db, QStringLiteral("import"),
                                   QStringLiteral(MEMWALL_TEST_DATA "/import/nvbench.json"), QStringLiteral("--format"),
                                   QStringLiteral("nvbench")});
            QVERIFY2(r.status == 0, qPrintable(r.err));
        }
        for (const char* kind : {"roofline", "compare"}) {
            const QString out = dir_.filePath(QStringLiteral("imported-%1.png").arg(QLatin1String(kind)));
            const Result r = plot({QStringLiteral("--db"), db, QStringLiteral("plot"), QLatin1String(kind),
                                   QStringLiteral("--run"), QStringLiteral("2"), QStringLiteral("--out"), out});
            QVERIFY2(r.status == 0, qPrintable(r.err));
            QVERIFY(QFile::exists(out));
        }
    }
    void refusals_exit_2_with_one_line() {
        const QString out = dir_.filePath(QStringLiteral("refused.png"));
        const QList<QStringList> cases{
            {QStringLiteral("--db"), db_, QStringLiteral("plot"), QStringLiteral("roofline"), QStringLiteral("--out"),
             dir_.filePath(QStringLiteral("r.jpg"))},
            {QStringLiteral("--db"), dir_.filePath(QStringLiteral("none.db")), QStringLiteral("plot"),
             QStringLiteral("roofline"), QStringLiteral("--out"), out},
            {QStringLiteral("--db"), db_, QStringLiteral("plot"), QStringLiteral("pie"), QStringLiteral("--out"), out},
            {QStringLiteral("--db"), db_, QStringLiteral("plot"), QStringLiteral("compare"), QStringLiteral("--run"),
             QStringLiteral("1"), QStringLiteral("--out"), out},
            {QStringLiteral("--db"), db_, QStringLiteral("plot"), QStringLiteral("roofline"), QStringLiteral("--run"),
             QStringLiteral("7"), QStringLiteral("--out"), out},
            {QStringLiteral("--db"), db_, QStringLiteral("plot"), QStringLiteral("roofline"), QStringLiteral("--size"),
             QStringLiteral("big"), QStringLiteral("--out"), out},
            {QStringLiteral("--db"), db_, QStringLiteral("plot"), QStringLiteral("compare"),
             QStringLiteral("--threshold"), QStringLiteral("2"), QStringLiteral("--out"), out},
            {QStringLiteral("--db"), db_, QStringLiteral("plot"), QStringLiteral("tuning"), QStringLiteral("--session"),
             QStringLiteral("gemm"), QStringLiteral("--out"), out},
        };
        for (const QStringList& args : cases) {
            const Result r = plot(args);
            QVERIFY2(r.status == 2, qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") + r.err));
            QVERIFY2(r.err.trimmed().count(QLatin1Char('\n')) == 0, qPrintable(r.err));
            QVERIFY(r.err.startsWith(QStringLiteral("memwall: error:")));
        }
        QVERIFY(!QFile::exists(out));
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("r.jpg"))));
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("none.db"))));
    }

  private:
    QTemporaryDir dir_;
    QString db_;
};

QTEST_GUILESS_MAIN(PlotCommandTest)
#include "plot_command_test.moc"

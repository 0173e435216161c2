// The explorer driven as a user would: a database made by a real sweep of the memwall binary,
// each view shown and saved as a PNG under the build tree, clicks, filters, drops and errors.
#include <sqlite3.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "core/fixtures.hpp"
#include "gui/app/main_window.hpp"
#include "tests/support/synthetic_results.hpp"

using namespace memwall;
using namespace memwall::gui;

namespace {

void run_memwall(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(MEMWALL_BINARY), args);
    QVERIFY2(p.waitForFinished(120000), "memwall did not finish");
    QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(p.readAllStandardError())));
}

QString output(const QString& name) { return QStringLiteral(MEMWALL_TEST_OUTPUT "/") + name; }

}  // namespace

class MainWindowTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);  // recent files go to a test location
        QSettings().clear();
        QVERIFY(dir_.isValid());
        db_ = dir_.filePath(QStringLiteral("sweep.db"));
        const QStringList common{QStringLiteral("--db"),      db_,
                                 QStringLiteral("run"),       QStringLiteral("--family"),
                                 QStringLiteral("attention"), QStringLiteral("--axis"),
                                 QStringLiteral("heads=1"),   QStringLiteral("--min-samples"),
                                 QStringLiteral("2"),         QStringLiteral("--timeout"),
                                 QStringLiteral("0.05"),      QStringLiteral("--quiet")};
        // Run 1: naive and flash; run 2: flash over two tile sizes and two lengths (a parameter map
        // and tuning sessions). Their ceilings are given below: measuring them takes minutes on a
        // loaded 2-core host, and the views need only a set.
        run_memwall(common + QStringList{QStringLiteral("--variant"), QStringLiteral("naive,flash"),
                                         QStringLiteral("--axis"), QStringLiteral("seq_q=64"), QStringLiteral("--axis"),
                                         QStringLiteral("seq_k=64"), QStringLiteral("--ceilings"),
                                         QStringLiteral("none")});
        run_memwall(common + QStringList{QStringLiteral("--variant"), QStringLiteral("flash"), QStringLiteral("--axis"),
                                         QStringLiteral("seq_q=64,128"), QStringLiteral("--axis"),
                                         QStringLiteral("seq_k=64,128"), QStringLiteral("--axis"),
                                         QStringLiteral("head_dim=64"), QStringLiteral("--axis"),
                                         QStringLiteral("Br=16,128"), QStringLiteral("--ceilings"),
                                         QStringLiteral("none")});
        Store store = Store::open(db_.toStdString(), Store::Mode::read_write);
        for (std::int64_t run : {1, 2}) store.save_ceilings(run, gui::test::ceilings());
        // Tuning sessions: two strategies replaying a recorded space, one measured live.
        test::add_session(store, test::replay_session("random", 1), {3e-3, std::nullopt, 2e-3, 2.5e-3});
        test::add_session(store, test::replay_session("guided", 1), {2e-3, 1e-3, 1.5e-3});
        test::add_session(store, test::live_session("random"), {1e-4, 2e-4});
    }

    void opens_a_real_sweep_and_shows_each_view() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w, 20000));
        QSignalSpy loaded(&w, &MainWindow::loaded);
        QVERIFY(w.open_database(db_));
        QVERIFY(loaded.wait(20000));
        QCOMPARE(w.runs().rowCount(), 2);
        QCOMPARE(loaded.front().front().toLongLong(), 8);  // the newest run: 2 lengths x 2 causal x 2 Br
        QCOMPARE(w.proxy().rowCount(), 8);
        QVERIFY(QSettings().value(QStringLiteral("recentFiles")).toStringList().contains(db_));

        const char* const names[] = {"roofline", "compare", "parameter_map", "tuner"};
        for (int tab = 0; tab < w.tabs()->count(); ++tab) {
            QSignalSpy compared(w.compare(), &ComparePanel::comparisonReady);
            w.tabs()->setCurrentIndex(tab);
            w.refresh_now();
            if (tab == MainWindow::CompareTab && w.compare()->loading()) QVERIFY(compared.wait(10000));
            QTest::qWait(50);
            QVERIFY(w.grab().save(output(QStringLiteral("main_window_%1.png").arg(QLatin1String(names[tab])))));
            w.export_chart(output(QStringLiteral("chart_%1.png").arg(QLatin1String(names[tab]))));
            QVERIFY(w.last_error().isEmpty());
        }
        QCOMPARE(w.roofline()->chart().points().size(), std::size_t(8));
        QVERIFY(!w.roofline()->chart().ceilings().empty());
        // Run 2 against run 1: the flash cases they share are paired, the rest unmatched.
        QVERIFY(w.compare()->model().rowCount() > 0);
        QVERIFY(w.compare()->model().unmatched() > 0);
        QVERIFY(w.parameter_map()->model().rowCount() > 0);
        // The tuner shows the newest session's study: the live one; the replays are the other study.
        QCOMPARE(w.tuning()->studies().size(), std::size_t(2));
        QCOMPARE(w.tuning()->model().traces().size(), std::size_t(1));
        QCOMPARE(w.tuning()->chart().time_axis_title(), QStringLiteral("Best time (s), measured"));
        w.tuning()->show_study(0);
        QCOMPARE(w.tuning()->model().traces().size(), std::size_t(2));
        QCOMPARE(w.tuning()->model().rowCount(), 7);
        QVERIFY(w.tuning()->chart().time_axis_title().endsWith(QStringLiteral("recorded on A100-PCIE-40GB")));
    }

    void the_compare_view_gives_memwall_compares_verdicts() {
        MainWindow w;
        QSignalSpy loaded(&w, &MainWindow::loaded);
        QVERIFY(w.open_database(db_));
        QVERIFY(loaded.wait(20000));
        QSignalSpy compared(w.compare(), &ComparePanel::comparisonReady);
        w.tabs()->setCurrentIndex(MainWindow::CompareTab);
        w.refresh_now();
        if (w.compare()->loading()) QVERIFY(compared.wait(20000));
        QProcess p;
        p.start(QStringLiteral(MEMWALL_BINARY),
                {QStringLiteral("--db"), db_, QStringLiteral("compare"), QStringLiteral("1"), QStringLiteral("2"),
                 QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() <= 1, qPrintable(QString::fromUtf8(p.readAllStandardError())));
        const QJsonArray cli =
            QJsonDocument::fromJson(p.readAllStandardOutput()).object().value(QStringLiteral("cases")).toArray();
        QVERIFY(!cli.isEmpty());
        std::size_t matched = 0;
        for (const CompareRow& r : w.compare()->model().rows()) {
            if (!r.matched()) continue;
            ++matched;
            const auto object = [](const std::string& json) {
                return QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
            };
            const auto same_case = [&](const QJsonValue& v) {
                const QJsonObject o = v.toObject();
                return o.value(QStringLiteral("variant")).toString().toStdString() == r.result.key.variant &&
                       o.value(QStringLiteral("problem")).toObject() == object(r.result.key.problem) &&
                       o.value(QStringLiteral("config")).toObject() == object(r.result.key.config);
            };
            const auto it = std::find_if(cli.begin(), cli.end(), same_case);
            QVERIFY2(it != cli.end(), qPrintable(r.label));
            const QJsonObject o = it->toObject();
            QCOMPARE(o.value(QStringLiteral("verdict")).toString(), verdict_text(r));
            QCOMPARE(o.value(QStringLiteral("reason")).toString().toStdString(), r.result.reason);
            if (r.result.ci.hi > 0) QCOMPARE(o.value(QStringLiteral("ratio")).toDouble(), r.result.ratio);
        }
        QCOMPARE(matched, std::size_t(cli.size()));
    }

    void the_compare_view_refuses_other_devices_unless_cross_device() {
        const QString db = dir_.filePath(QStringLiteral("devices.db"));
        write_synthetic_run(db.toStdString(), 60, 1, "base");
        write_synthetic_run(db.toStdString(), 60, 2, "other");
        sqlite3* raw = nullptr;
        QCOMPARE(sqlite3_open(db.toUtf8().constData(), &raw), SQLITE_OK);
        QCOMPARE(sqlite3_exec(raw, "UPDATE runs SET device = 'another device' WHERE id = 2", nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(raw);
        MainWindow w;
        QSignalSpy loaded(&w, &MainWindow::loaded);
        QVERIFY(w.open_database(db));
        QVERIFY(loaded.wait(20000));
        QSignalSpy compared(w.compare(), &ComparePanel::comparisonReady);
        w.tabs()->setCurrentIndex(MainWindow::CompareTab);
        w.refresh_now();
        QVERIFY(compared.wait(20000));
        QVERIFY2(w.compare()->summary()->text().startsWith(QStringLiteral("cannot compare: ")),
                 qPrintable(w.compare()->summary()->text()));
        QCOMPARE(w.compare()->model().rowCount(), 0);
        w.compare()->cross_device()->setChecked(true);
        QVERIFY(compared.wait(20000));
        QCOMPARE(w.compare()->model().rowCount(), 60);
        QVERIFY(w.compare()->model().rows().front().result.base.percent_of_roof > 0);
        QVERIFY(w.compare()
                    ->model()
                    .data(w.compare()->model().index(0, CompareModel::Baseline))
                    .toString()
                    .contains(QStringLiteral("% roof")));
    }

    void clicking_a_point_selects_its_case() {
        // Synthetic cases, so the figures (and which points stand apart) never vary.
        const QString db = dir_.filePath(QStringLiteral("synthetic.db"));
        write_synthetic_run(db.toStdString(), 300);
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w, 20000));
        QSignalSpy loaded(&w, &MainWindow::loaded);
        QVERIFY(w.open_database(db));
        QVERIFY(loaded.wait(20000));
        w.refresh_now();
        ChartWidget* view = w.roofline()->view();
        const RooflineChart& chart = w.roofline()->chart();
        // The point farthest from the others: cases of equal figures share a pixel.
        const PlotMapping m = chart.mapping(QRectF(view->rect()));
        const auto pixel = [&](const RoofPoint& p) { return m.to_pixel(p.intensity, p.flops_per_second); };
        const RoofPoint* target = nullptr;
        double room = 0;
        for (const RoofPoint& p : chart.points()) {
            double nearest = 1e9;
            for (const RoofPoint& q : chart.points())
                if (&q != &p) nearest = std::min(nearest, QLineF(pixel(p), pixel(q)).length());
            if (nearest > room) {
                room = nearest;
                target = &p;
            }
        }
        QVERIFY2(target && room > 3, "no point stands apart on the roofline");  // clicks round to whole pixels
        const QPointF at = pixel(*target);
        QTest::mouseClick(view, Qt::LeftButton, {}, at.toPoint());
        QCOMPARE(w.selected_case(), std::optional<std::int64_t>(target->row->id));
        QCOMPARE(w.cases().row(w.cases().row_of(target->row->id)).id, target->row->id);
        // The table's selection is ringed on the chart.
        QCOMPARE(chart.selected(), std::optional<std::int64_t>(target->row->id));
    }

    void filters_narrow_the_table_and_the_charts() {
        MainWindow w;
        QSignalSpy loaded(&w, &MainWindow::loaded);
        QVERIFY(w.open_database(db_));
        QVERIFY(loaded.wait(20000));
        w.filter_bar()->text()->setText(QStringLiteral("Br=16"));
        w.filter_bar()->apply_text();
        QCOMPARE(w.proxy().rowCount(), 4);
        w.refresh_now();
        QCOMPARE(w.roofline()->chart().points().size(), std::size_t(4));
        w.filter_bar()->regex()->setChecked(true);
        w.filter_bar()->text()->setText(QStringLiteral("seq_q=(64"));
        w.filter_bar()->apply_text();
        QVERIFY(w.filter_bar()->text()->toolTip().contains(QStringLiteral("invalid regular expression")));
        QCOMPARE(w.proxy().rowCount(), 4);
        w.filter_bar()->text()->setText(QStringLiteral("seq_q=128 .*Br=128"));
        w.filter_bar()->apply_text();
        QCOMPARE(w.proxy().rowCount(), 2);
        QComboBox* causal_status = w.filter_bar()->combo(CaseField::status);
        QCOMPARE(causal_status->count(), 2);  // "any status", "ok"
        // Both runs: the cases of each.
        w.filter_bar()->text()->clear();
        w.filter_bar()->apply_text();
        w.select_runs({1, 2});
        QVERIFY(loaded.wait(20000));
        QCOMPARE(w.cases().size(), 16);
        QComboBox* variants = w.filter_bar()->combo(CaseField::variant);
        QCOMPARE(variants->count(), 3);
        variants->setCurrentIndex(variants->findText(QStringLiteral("naive")));
        QCOMPARE(w.proxy().rowCount(), 4);
    }

    void bad_files_show_a_message_and_keep_the_window() {
        MainWindow w;
        QSignalSpy loaded(&w, &MainWindow::loaded);
        QVERIFY(w.open_database(db_));
        QVERIFY(loaded.wait(20000));
        QVERIFY(!w.open_database(dir_.filePath(QStringLiteral("missing.db"))));
        QVERIFY(w.last_error().contains(QStringLiteral("no such file")));
        QCOMPARE(w.database(), db_);
        QCOMPARE(w.cases().size(), 8);

        const QString foreign = dir_.filePath(QStringLiteral("foreign.db"));
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(foreign.toUtf8().constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "CREATE TABLE t (x)", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
        QVERIFY(!w.open_database(foreign));
        QVERIFY(w.last_error().contains(QStringLiteral("not a memwall database")));

        const QString newer = dir_.filePath(QStringLiteral("newer.db"));
        QVERIFY(QFile::copy(db_, newer));
        QCOMPARE(sqlite3_open(newer.toUtf8().constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
        QVERIFY(!w.open_database(newer));
        QVERIFY(w.last_error().contains(QStringLiteral("newer memwall")));
        QVERIFY(w.findChild<QMessageBox*>());  // shown, not modal: nothing blocks
        QCOMPARE(w.database(), db_);

        w.export_chart(dir_.filePath(QStringLiteral("chart.gif")));
        QVERIFY(w.last_error().contains(QStringLiteral(".png or .svg")));
    }

    void a_dropped_file_opens() {
        MainWindow w;
        QSignalSpy loaded(&w, &MainWindow::loaded);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(db_)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QCOMPARE(w.database(), db_);
        QVERIFY(loaded.wait(20000));
        w.tabs()->setCurrentIndex(MainWindow::TuningTab);
        w.export_chart(dir_.filePath(QStringLiteral("tuning.svg")));
        QVERIFY(QFile::exists(dir_.filePath(QStringLiteral("tuning.svg"))));
    }

  private:
    QTemporaryDir dir_;
    QString db_;
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"

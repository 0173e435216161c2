// The hierarchical roofline end to end: after a cuda-emu sweep of attention, `memwall show
// --levels` and `memwall plot roofline --level all` place every emulated case from its measured
// emu bytes at L2 and DRAM (filled), with the model's points beside them; after a CPU sweep every
// case sits at each level of this host's hierarchy from the model (hollow).
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <set>

#include "gui/core/plot.hpp"
#include "metrics/memory_hierarchy.hpp"

using namespace memwall;
using namespace memwall::gui;

namespace {

struct Result {
    int status = -1;
    QString out, err;
};

Result memwall_cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(MEMWALL_BINARY), args);
    if (!p.waitForFinished(300000)) return {};
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

// A quick sweep: small problems, few samples.
QStringList sweep(const QString& db, const QString& backend, const QString& variant) {
    return {QStringLiteral("--db"),
            db,
            QStringLiteral("run"),
            QStringLiteral("--family"),
            QStringLiteral("attention"),
            QStringLiteral("--backend"),
            backend,
            QStringLiteral("--variant"),
            variant,
            QStringLiteral("--axis"),
            QStringLiteral("heads=1"),
            QStringLiteral("--axis"),
            QStringLiteral("seq_q=64"),
            QStringLiteral("--axis"),
            QStringLiteral("seq_k=64"),
            QStringLiteral("--axis"),
            QStringLiteral("head_dim=64"),
            QStringLiteral("--axis"),
            QStringLiteral("dtype=fp32"),
            QStringLiteral("--ceilings"),
            QStringLiteral("none"),
            QStringLiteral("--quiet"),
            QStringLiteral("--warmup"),
            QStringLiteral("0"),
            QStringLiteral("--min-samples"),
            QStringLiteral("2"),
            QStringLiteral("--min-time"),
            QStringLiteral("0"),
            QStringLiteral("--timeout"),
            QStringLiteral("0.05")};
}

// The chart of `db`'s latest run at every level.
std::vector<RoofPoint> kEveryLevel(const QString& db, std::vector<CaseRow>& rows) {
    const ResultsReader reader(db.toStdString());
    const std::vector<RunRow> runs = reader.runs();
    rows = reader.cases(runs.back().info.id, runs.back().ceilings);
    RooflineChart chart;
    chart.set_level(RooflineChart::kEveryLevel);
    configure_roofline(chart, runs.back(), pointers(rows));
    return chart.points();
}

}  // namespace

class HierarchicalRooflineTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void emulated_cases_sit_at_their_emu_bytes_with_the_model_beside() {
        const QString db = dir_.filePath(QStringLiteral("emu.db"));
        const Result run = memwall_cli(sweep(db, QStringLiteral("cuda-emu"), QStringLiteral("naive,flash")));
        QVERIFY2(run.status == 0, qPrintable(run.err));

        const Result show = memwall_cli(
            {QStringLiteral("--db"), db, QStringLiteral("show"), QStringLiteral("latest"), QStringLiteral("--levels")});
        QVERIFY2(show.status == 0, qPrintable(show.err));
        std::size_t cases = 0;
        for (const QString& variant : {QStringLiteral("naive"), QStringLiteral("flash")}) {
            const QString kernel = QStringLiteral("attention/%1/cuda-emu").arg(variant);
            bool emu_dram = false, emu_l2 = false, beside = false;
            for (const QString& line : show.out.split(QLatin1Char('\n'))) {
                if (!line.startsWith(kernel)) continue;
                const QStringList cells = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
                emu_dram =
                    emu_dram || (cells.contains(QStringLiteral("dram")) && cells.contains(QStringLiteral("emu")) &&
                                 line.contains(QStringLiteral("dram__bytes_read.sum")));
                emu_l2 = emu_l2 ||
                         (cells.contains(QStringLiteral("l2")) && line.contains(QStringLiteral("lts__t_bytes.sum")));
                beside = beside || line.contains(QStringLiteral("model (beside)"));
            }
            QVERIFY2(emu_dram && emu_l2 && beside, qPrintable(kernel + QStringLiteral("\n") + show.out));
            ++cases;
        }
        QCOMPARE(cases, std::size_t(2));

        const QString svg = dir_.filePath(QStringLiteral("emu.svg"));
        const Result plot =
            memwall_cli({QStringLiteral("--db"), db, QStringLiteral("plot"), QStringLiteral("roofline"),
                         QStringLiteral("--level"), QStringLiteral("all"), QStringLiteral("--out"), svg});
        QVERIFY2(plot.status == 0, qPrintable(plot.err));

        std::vector<CaseRow> rows;
        const std::vector<RoofPoint> points = kEveryLevel(db, rows);
        QCOMPARE(rows.size(), std::size_t(4));  // naive and flash, causal or not
        for (const CaseRow& r : rows) {
            std::set<std::string> measured, modelled_beside;
            for (const RoofPoint& p : points) {
                if (p.row->id != r.id) continue;
                if (p.source == CounterSource::emu) measured.insert(p.level);
                if (p.source == CounterSource::model && p.beside) modelled_beside.insert(p.level);
            }
            QVERIFY2(measured.count("dram") && measured.count("l2"), qPrintable(case_label(r)));
            QVERIFY2(modelled_beside.count("dram") && modelled_beside.count("l2"), qPrintable(case_label(r)));
        }
    }

    void cpu_cases_sit_at_every_level_of_the_host_from_the_model() {
        const QString db = dir_.filePath(QStringLiteral("cpu.db"));
        const Result run = memwall_cli(sweep(db, QStringLiteral("cpu"), QStringLiteral("naive")));
        QVERIFY2(run.status == 0, qPrintable(run.err));
        std::set<std::string> host{"dram"};
        for (const CacheLevel& c : detect_memory_hierarchy().caches) host.insert(c.name);
        QVERIFY(host.size() >= 3);

        std::vector<CaseRow> rows;
        const std::vector<RoofPoint> points = kEveryLevel(db, rows);
        QVERIFY(!rows.empty());
        for (const CaseRow& r : rows) {
            std::set<std::string> levels;
            for (const RoofPoint& p : points) {
                if (p.row->id != r.id) continue;
                QCOMPARE(p.source, CounterSource::model);  // hollow
                levels.insert(p.level);
            }
            QVERIFY2(levels == host, qPrintable(case_label(r)));
        }
    }

  private:
    QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(HierarchicalRooflineTest)
#include "hierarchical_roofline_test.moc"

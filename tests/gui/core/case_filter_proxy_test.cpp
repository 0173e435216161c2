#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QTest>

#include "fixtures.hpp"
#include "gui/core/case_filter_proxy.hpp"

using namespace memwall;
using namespace memwall::gui;

namespace {

std::vector<std::int64_t> ids(const CaseFilterProxy& p) {
    std::vector<std::int64_t> out;
    for (const CaseRow* r : p.visible_rows()) out.push_back(r->id);
    return out;
}

}  // namespace

class CaseFilterProxyTest : public QObject {
    Q_OBJECT
  private slots:
    void init() {
        model_ = std::make_unique<CaseModel>();
        proxy_ = std::make_unique<CaseFilterProxy>();
        proxy_->setSourceModel(model_.get());
        tester_ = std::make_unique<QAbstractItemModelTester>(proxy_.get(),
                                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        model_->append(
            {test::row({.id = 1, .variant = "naive", .problem = R"({"seq":512})", .median = 3e-3}),
             test::row({.id = 2, .variant = "flash", .problem = R"({"seq":1024})", .median = 1e-3}),
             test::row(
                 {.id = 3, .variant = "flash", .backend = "cuda-emu", .problem = R"({"seq":2048})", .median = 2e-3}),
             test::row({.id = 4, .variant = "naive", .median = 0, .status = CaseStatus::timeout})});
    }
    void cleanup() {
        tester_.reset();
        proxy_.reset();
        model_.reset();
    }
    void plain_text_is_a_case_insensitive_substring() {
        QVERIFY(proxy_->set_text(QStringLiteral("FLASH"), false));
        QCOMPARE(ids(*proxy_), (std::vector<std::int64_t>{2, 3}));
        QVERIFY(proxy_->set_text(QStringLiteral("seq=1024"), false));
        QCOMPARE(ids(*proxy_), (std::vector<std::int64_t>{2}));
        QVERIFY(proxy_->set_text(QStringLiteral("timeout"), false));  // status is searchable
        QCOMPARE(ids(*proxy_), (std::vector<std::int64_t>{4}));
        QVERIFY(proxy_->set_text(QString(), false));
        QCOMPARE(proxy_->rowCount(), 4);
    }
    void regex_and_its_errors() {
        QVERIFY(proxy_->set_text(QStringLiteral("seq=(512|2048)\\b"), true));
        QCOMPARE(ids(*proxy_), (std::vector<std::int64_t>{1, 3, 4}));
        QVERIFY(!proxy_->set_text(QStringLiteral("seq=(512"), true));
        QVERIFY(proxy_->error().contains(QStringLiteral("invalid regular expression")));
        QCOMPARE(ids(*proxy_), (std::vector<std::int64_t>{1, 3, 4}));  // the previous filter stays
        QVERIFY(proxy_->set_text(QStringLiteral("."), false));         // plain: no metacharacters
        QCOMPARE(proxy_->rowCount(), 0);
        QVERIFY(proxy_->error().isEmpty());
    }
    void allowed_values_per_field() {
        proxy_->set_allowed(CaseField::variant, {QStringLiteral("flash")});
        QCOMPARE(ids(*proxy_), (std::vector<std::int64_t>{2, 3}));
        proxy_->set_allowed(CaseField::backend, {QStringLiteral("cuda-emu")});
        QCOMPARE(ids(*proxy_), (std::vector<std::int64_t>{3}));
        proxy_->set_allowed(CaseField::variant, {});
        proxy_->set_allowed(CaseField::backend, {});
        proxy_->set_allowed(CaseField::status, {QStringLiteral("ok"), QStringLiteral("failed")});
        QCOMPARE(ids(*proxy_), (std::vector<std::int64_t>{1, 2, 3}));
        QVERIFY(!proxy_->accepts(model_->row(3)));
        QVERIFY(proxy_->accepts(model_->row(0)));
    }
    void sorts_by_figures_not_text() {
        proxy_->sort(CaseModel::Time, Qt::AscendingOrder);
        QCOMPARE(ids(*proxy_), (std::vector<std::int64_t>{2, 3, 1, 4}));  // untimed last
        proxy_->sort(CaseModel::Time, Qt::DescendingOrder);
        QCOMPARE(ids(*proxy_), (std::vector<std::int64_t>{4, 1, 3, 2}));
        proxy_->sort(CaseModel::Variant, Qt::AscendingOrder);
        QCOMPARE(ids(*proxy_), (std::vector<std::int64_t>{2, 3, 1, 4}));  // ties by case id
        // Rows that arrive later take their sorted place.
        model_->append({test::row({.id = 5, .variant = "a_first"})});
        QCOMPARE(ids(*proxy_).front(), 5);
    }
    void filters_a_hundred_thousand_rows_quickly() {
        tester_.reset();  // the tester's checks on every change are quadratic at this size
        std::vector<CaseRow> rows;
        for (int i = 0; i < 100000; ++i)
            rows.push_back(test::row({.id = 100 + i,
                                      .variant = i % 3 ? "flash" : "naive",
                                      .problem = "{\"seq\":" + std::to_string(64 * (1 + i % 50)) + "}",
                                      .median = 1e-3 * (1 + i % 17)}));
        model_->append(rows);
        proxy_->sort(CaseModel::Time, Qt::AscendingOrder);
        proxy_->set_allowed(CaseField::variant, {QStringLiteral("naive")});
        QElapsedTimer t;
        t.start();
        QVERIFY(proxy_->set_text(QStringLiteral("seq=3200 |"), false));
        const qint64 ms = t.elapsed();
        QCOMPARE(proxy_->rowCount(), 667);  // i = 99 + 150k < 100000: seq 3200 and naive
        qInfo("filter over 100,000 rows: %lld ms", ms);
        QVERIFY2(ms < 1000, "filtering 100,000 rows took over a second");
    }

  private:
    std::unique_ptr<CaseModel> model_;
    std::unique_ptr<CaseFilterProxy> proxy_;
    std::unique_ptr<QAbstractItemModelTester> tester_;
};

QTEST_GUILESS_MAIN(CaseFilterProxyTest)
#include "case_filter_proxy_test.moc"

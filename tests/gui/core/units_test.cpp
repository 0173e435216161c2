#include <QTest>

#include "gui/core/units.hpp"

using namespace memwall::gui;

class UnitsTest : public QObject {
    Q_OBJECT
  private slots:
    void si_prefixes() {
        QCOMPARE(si(1.25e9), QStringLiteral("1.25 G"));
        QCOMPARE(si(350e6, 2), QStringLiteral("350 M"));  // digits never force an exponent
        QCOMPARE(si(999.9e6), QStringLiteral("1 G"));     // rounds up into the next prefix, not "1e+03 M"
        QCOMPARE(si(0.004), QStringLiteral("4 m"));
        QCOMPARE(si(0), QStringLiteral("0 "));
        QCOMPARE(si(1.0 / 0.0), QStringLiteral("–"));
        QCOMPARE(si_unit(2.5e11, QStringLiteral("FLOP/s")), QStringLiteral("250 GFLOP/s"));
    }
    void seconds() {
        QCOMPARE(seconds_text(8.12e-4), QStringLiteral("812 µs"));
        QCOMPARE(seconds_text(1.25e-3), QStringLiteral("1.25 ms"));
        QCOMPARE(seconds_text(2.03), QStringLiteral("2.03 s"));
    }
    void ticks() {
        QCOMPARE(tick_text(0.01), QStringLiteral("0.01"));
        QCOMPARE(tick_text(1000), QStringLiteral("1000"));
        QCOMPARE(tick_text(1e9), QStringLiteral("1 G"));
    }
};

QTEST_GUILESS_MAIN(UnitsTest)
#include "units_test.moc"

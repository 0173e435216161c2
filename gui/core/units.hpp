// Numbers as the explorer prints them: SI prefixes, times in the unit that suits them.
#pragma once

#include <QString>

namespace memwall::gui {

// 1.25e9 -> "1.25 G", 0.004 -> "4 m"; `digits` significant digits.
QString si(double v, int digits = 3);
// With a unit: si_unit(2.5e11, "FLOP/s") -> "250 GFLOP/s".
QString si_unit(double v, const QString& unit, int digits = 3);
// 8.12e-4 -> "812 µs", 1.25e-3 -> "1.25 ms", 2.03 -> "2.03 s".
QString seconds_text(double s);
// A number for axis labels: 0.01, 0.5, 2, 1000 (no exponent below 1e6, SI prefix above).
QString tick_text(double v);

}  // namespace memwall::gui

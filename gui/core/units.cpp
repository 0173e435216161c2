#include "gui/core/units.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace memwall::gui {

namespace {

struct Prefix {
    double scale;
    const char* symbol;
};
constexpr std::array<Prefix, 9> kPrefixes{
    {{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}, {1e-3, "m"}, {1e-6, "µ"}, {1e-9, "n"}}};

}  // namespace

QString si(double v, int digits) {
    if (!std::isfinite(v)) return QStringLiteral("–");
    if (v == 0) return QStringLiteral("0 ");
    const double a = std::abs(v);
    const Prefix* chosen = &kPrefixes.back();
    for (const Prefix& p : kPrefixes) {
        if (a >= p.scale * 0.9995) {
            chosen = &p;
            break;
        }
    }
    const double x = v / chosen->scale;
    // Never an exponent: at least as many digits as the integer part has.
    const int whole = std::max(1, static_cast<int>(std::floor(std::log10(std::abs(x)))) + 1);
    return QString::number(x, 'g', std::max(digits, whole)) + QLatin1Char(' ') + QString::fromUtf8(chosen->symbol);
}

QString si_unit(double v, const QString& unit, int digits) { return si(v, digits) + unit; }

QString seconds_text(double s) { return si_unit(s, QStringLiteral("s"), 3); }

QString tick_text(double v) {
    if (std::abs(v) >= 1e6) return si(v, 3).trimmed();
    return QString::number(v, 'g', 6);
}

}  // namespace memwall::gui

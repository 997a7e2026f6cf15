// SPDX-License-Identifier: MIT
#include "timeticks.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ridgeline::ui {

std::int64_t niceTickStep(double minStepNs)
{
    std::int64_t decade = 1;
    for (;;) {
        for (const std::int64_t m : { 1, 2, 5 }) {
            if (static_cast<double>(m * decade) >= minStepNs)
                return m * decade;
        }
        if (decade > 1'000'000'000'000'000)
            return 10 * decade;
        decade *= 10;
    }
}

namespace {

struct Unit {
    double ns;
    const char16_t* name;
};
constexpr std::array<Unit, 4> kUnits { { { 1, u"ns" }, { 1e3, u"µs" }, { 1e6, u"ms" }, { 1e9, u"s" } } };

const Unit& unitFor(double ns)
{
    const Unit* unit = &kUnits[0];
    for (const auto& u : kUnits) {
        if (std::abs(ns) >= u.ns)
            unit = &u;
    }
    return *unit;
}

} // namespace

QString tickLabel(std::int64_t offsetNs, std::int64_t stepNs)
{
    if (offsetNs == 0)
        return QStringLiteral("0");
    const Unit& unit = unitFor(static_cast<double>(stepNs));
    // Decimals so that one step shows: a 200 µs step in ms needs 1 decimal.
    const double stepInUnit = static_cast<double>(stepNs) / unit.ns;
    const int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(stepInUnit) - 1e-9)));
    return QString::number(static_cast<double>(offsetNs) / unit.ns, 'f', decimals) + QLatin1Char(' ')
        + QString::fromUtf16(unit.name);
}

QString durationText(double ns)
{
    const Unit& unit = unitFor(ns);
    const double value = ns / unit.ns;
    const int decimals = value >= 100 ? 1 : value >= 10 ? 2 : 3;
    return QString::number(value, 'f', unit.ns == 1 ? 0 : decimals) + QLatin1Char(' ') + QString::fromUtf16(unit.name);
}

} // namespace ridgeline::ui

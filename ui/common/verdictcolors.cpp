// SPDX-License-Identifier: MIT
#include "verdictcolors.h"

#include "palette.h"

namespace ridgeline::ui {

QColor verdictColor(core::VerdictClass verdict)
{
    switch (verdict) {
    case core::VerdictClass::ComputeBound:
        return QColor(0xe0, 0x60, 0x4f);
    case core::VerdictClass::MemoryBound:
        return QColor(0x4f, 0xa3, 0xe0);
    case core::VerdictClass::CommunicationBound:
        return QColor(0xa0, 0x6c, 0xd5);
    case core::VerdictClass::LatencyBound:
        return QColor(0xf5, 0xb6, 0x42);
    case core::VerdictClass::Unknown:
        break;
    }
    return QColor(0x9a, 0x9a, 0x9a);
}

QColor verdictColor(QStringView verdict)
{
    return verdictColor(core::verdictClassFromString(verdict.toString().toStdString()));
}

QVariant verdictCellData(core::VerdictClass verdict, int role)
{
    const QColor color = verdictColor(verdict);
    const bool known = verdict != core::VerdictClass::Unknown;
    if (role == Qt::BackgroundRole)
        return known ? QVariant(color) : QVariant();
    if (role == Qt::ForegroundRole)
        return known ? textColorOn(color) : color;
    return {};
}

QVariant verdictCellData(QStringView verdict, int role)
{
    return verdictCellData(core::verdictClassFromString(verdict.toString().toStdString()), role);
}

} // namespace ridgeline::ui

// SPDX-License-Identifier: MIT
#include "verdictcolors.h"

#include "ridgeline/core/analysis/roofline.h"

namespace ridgeline::ui {

QColor verdictColor(QStringView verdict)
{
    if (verdict == QLatin1String(core::verdict::ComputeBound))
        return QColor(0xe0, 0x60, 0x4f);
    if (verdict == QLatin1String(core::verdict::MemoryBound))
        return QColor(0x4f, 0xa3, 0xe0);
    if (verdict == QLatin1String(core::verdict::CommunicationBound))
        return QColor(0xa0, 0x6c, 0xd5);
    if (verdict == QLatin1String(core::verdict::LatencyBound))
        return QColor(0xf5, 0xb6, 0x42);
    return QColor(0x9a, 0x9a, 0x9a);
}

} // namespace ridgeline::ui

// SPDX-License-Identifier: MIT
#include "verdictcolors.h"

namespace ridgeline::ui {

QColor verdictColor(QStringView verdict)
{
    if (verdict == u"compute-bound")
        return QColor(0xe0, 0x60, 0x4f);
    if (verdict == u"memory-bound")
        return QColor(0x4f, 0xa3, 0xe0);
    if (verdict == u"communication-bound")
        return QColor(0xa0, 0x6c, 0xd5);
    if (verdict == u"latency-bound")
        return QColor(0xf5, 0xb6, 0x42);
    return QColor(0x9a, 0x9a, 0x9a);
}

} // namespace ridgeline::ui

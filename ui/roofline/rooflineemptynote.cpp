// SPDX-License-Identifier: MIT
#include "rooflineemptynote.h"

#include <QTextDocument>
#include <QTextOption>
#include <algorithm>
#include <map>

namespace ridgeline::ui {

RooflineEmptyNote::RooflineEmptyNote(QGraphicsItem* parent)
    : QGraphicsTextItem(parent)
{
    setZValue(20);
    setAcceptedMouseButtons(Qt::NoButton);
    document()->setDefaultTextOption(QTextOption(Qt::AlignHCenter));
    hide();
}

QString RooflineEmptyNote::explanation(
    bool hasSession, const core::RooflineChart& chart, std::span<const core::KernelSummary> kernels)
{
    if (!hasSession)
        return tr("Open a session (File ▸ Open Session) or capture one (Capture ▸ New Capture) to see its kernels on "
                  "the roofline.");
    if (!chart.points.empty())
        return {};
    if (kernels.empty())
        return tr("This session has no kernels.");
    if (chart.unplotted.empty())
        return tr("No kernel runs on the GPU or rank chosen above. Choose All to see every kernel.");

    std::map<std::string, int> reasons;
    bool noCounters = true;
    for (const auto& u : chart.unplotted) {
        ++reasons[u.reason];
        noCounters = noCounters && u.kernel < kernels.size() && !kernels[u.kernel].analysis.hasFigures();
    }
    QString text = tr("No kernel is on the roofline.");
    if (noCounters) {
        text += QLatin1Char('\n')
            + tr("None of the %n kernel(s) of this session has hardware counters (FLOPs and bytes moved): traces of "
                 "Nsight Systems hold times only, and so do those of the PyTorch profiler unless recorded with "
                 "record_shapes=True (then FLOPs and bytes follow from the operators' shapes).",
                nullptr, static_cast<int>(chart.unplotted.size()));
        text += QLatin1Char('\n')
            + tr("Counters come from a capture (Capture ▸ New Capture, or ridgeline capture --metrics roofline) "
                 "or from an Nsight Compute CSV (ncu --csv --page raw, then File ▸ Import Trace). The kernel table, "
                 "the timeline and the details still work without them.");
    } else {
        for (const auto& [reason, count] : reasons)
            text += QLatin1Char('\n') + tr("%n kernel(s): %1.", nullptr, count).arg(QString::fromStdString(reason));
    }
    if (chart.memory.empty() && chart.compute.empty())
        text += QLatin1Char('\n')
            + tr("No ceilings are drawn: the session does not name a GPU whose peaks are known "
                 "(ridgeline ceilings lists them).");
    return text;
}

void RooflineEmptyNote::update(
    bool hasSession, const core::RooflineChart& chart, std::span<const core::KernelSummary> kernels)
{
    const QString text = explanation(hasSession, chart, kernels);
    // The first sentence as a heading, the others as paragraphs.
    QString html;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i)
        html += (i == 0 ? QStringLiteral("<p><b>%1</b></p>") : QStringLiteral("<p>%1</p>"))
                    .arg(lines[i].toHtmlEscaped());
    setHtml(html);
    setVisible(!text.isEmpty());
}

void RooflineEmptyNote::place(const QRectF& plotArea)
{
    const qreal width = std::max<qreal>(120, std::min<qreal>(plotArea.width() - 40, 560));
    setTextWidth(width);
    const QRectF box = boundingRect();
    setPos(plotArea.center().x() - box.width() / 2, plotArea.center().y() - box.height() / 2);
}

} // namespace ridgeline::ui

#include "moc_rooflineemptynote.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)

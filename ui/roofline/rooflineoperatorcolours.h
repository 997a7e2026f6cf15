// SPDX-License-Identifier: MIT
// The roofline's points coloured by PyTorch operator (issue 17) instead of by verdict: each kernel
// takes the colour of the operator that launched most of its GPU time (core::OperatorGroups::
// mainGroupOf, innermost attribution as `report --by op`). The operators with the most GPU time
// among the kernels on the chart get a colour each; the others share one, and kernels no operator
// launched are grey.
#pragma once

#include "ridgeline/core/analysis/rooflinechart.h"
#include "session/sessiondocument.h"

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>
#include <vector>

namespace ridgeline::ui {

class RooflineOperatorColours {
public:
    static constexpr int kNamedOperators = 9;

    // For the kernels of `chart` (indexes into the document's kernel summaries).
    void build(const SessionDocument& document, const core::RooflineChart& chart);

    // Palette index of a kernel summary; palette() and names() hold one entry per colour in use.
    quint8 colourOf(std::size_t kernel) const;
    const QList<QColor>& palette() const { return m_palette; }
    const QStringList& names() const { return m_names; } // legend labels, as palette()
    // "aten::mm (80 % of its GPU time)"; empty when no operator launched the kernel.
    QString operatorOf(std::size_t kernel) const;

private:
    struct KernelColour {
        quint8 colour = 0;
        int group = -1; // into the document's operator groups; -1: none
        double share = 0;
    };
    std::vector<KernelColour> m_kernels; // per kernel summary
    QList<QColor> m_palette;
    QStringList m_names;
    QStringList m_groupNames; // per operator group of the document
};

} // namespace ridgeline::ui

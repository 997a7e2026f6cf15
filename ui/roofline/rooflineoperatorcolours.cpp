// SPDX-License-Identifier: MIT
#include "rooflineoperatorcolours.h"

#include <QCoreApplication>
#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace ridgeline::ui {

namespace {

QString coloursTr(const char* text)
{
    return QCoreApplication::translate("ridgeline::ui::RooflineOperatorColours", text);
}

// A qualitative palette (Tableau 10 without its grey), readable on light and dark charts.
constexpr std::array<QRgb, RooflineOperatorColours::kNamedOperators> kColours { 0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2,
    0x59a14f, 0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f };
const QColor kOther(0x6b, 0x6b, 0x6b);
const QColor kNone(0xc8, 0xc8, 0xc8);

} // namespace

void RooflineOperatorColours::build(const SessionDocument& document, const core::RooflineChart& chart)
{
    m_kernels.assign(document.report.kernels.size(), {});
    m_palette.clear();
    m_names.clear();
    m_groupNames.clear();
    if (!document.operators)
        return;
    const auto& groups = document.operators->byOperator;
    for (const auto& g : groups.groups)
        m_groupNames.append(QString::fromStdString(g.row.name));
    // The main operator of each kernel on the chart; groups ranked by their GPU time (their order).
    std::set<std::size_t> shown; // groups with a kernel on the chart
    for (const auto& point : chart.points) {
        auto& k = m_kernels[point.kernel];
        if (k.group >= 0)
            continue;
        const auto main = groups.mainGroupOf(point.nameId, point.deviceId);
        if (!main || groups.groups[main->group].unattributed)
            continue;
        k.group = static_cast<int>(main->group);
        k.share = main->share;
        shown.insert(main->group);
    }
    std::map<std::size_t, quint8> colourOfGroup;
    for (const std::size_t group : shown) {
        if (colourOfGroup.size() == static_cast<std::size_t>(kNamedOperators))
            break;
        colourOfGroup[group] = static_cast<quint8>(m_palette.size());
        m_palette.append(QColor(kColours[colourOfGroup.size() - 1]));
        m_names.append(m_groupNames[static_cast<qsizetype>(group)]);
    }
    const bool others = shown.size() > colourOfGroup.size();
    const auto other = static_cast<quint8>(m_palette.size());
    if (others) {
        m_palette.append(kOther);
        m_names.append(coloursTr("other operators"));
    }
    const auto none = static_cast<quint8>(m_palette.size());
    const bool unlaunched = std::any_of(chart.points.begin(), chart.points.end(),
        [this](const core::RooflinePoint& p) { return m_kernels[p.kernel].group < 0; });
    if (unlaunched) {
        m_palette.append(kNone);
        m_names.append(coloursTr("no operator"));
    }
    for (auto& k : m_kernels) {
        if (k.group < 0)
            k.colour = none;
        else if (auto it = colourOfGroup.find(static_cast<std::size_t>(k.group)); it != colourOfGroup.end())
            k.colour = it->second;
        else
            k.colour = other;
    }
}

quint8 RooflineOperatorColours::colourOf(std::size_t kernel) const
{
    return kernel < m_kernels.size() ? m_kernels[kernel].colour : 0;
}

QString RooflineOperatorColours::operatorOf(std::size_t kernel) const
{
    if (kernel >= m_kernels.size() || m_kernels[kernel].group < 0)
        return {};
    const auto& k = m_kernels[kernel];
    return coloursTr("%1 (%2 % of its GPU time)")
        .arg(m_groupNames[k.group])
        .arg(k.share * 100.0, 0, 'f', k.share > 0.995 ? 0 : 1);
}

} // namespace ridgeline::ui

// SPDX-License-Identifier: MIT
// The base-10 log axes of the roofline page's charts.
#pragma once

#include <QChart>
#include <QLogValueAxis>

namespace ridgeline::ui {

// Makes `axis` a base-10 log axis labelled with `labelFormat` ("%g", "%.0e") and titled `title`,
// and adds it to `chart` at `alignment`.
inline void addLogAxis(
    QChart* chart, QLogValueAxis* axis, Qt::Alignment alignment, const QString& labelFormat, const QString& title)
{
    axis->setBase(10);
    axis->setLabelFormat(labelFormat);
    axis->setTitleText(title);
    chart->addAxis(axis, alignment);
}

} // namespace ridgeline::ui

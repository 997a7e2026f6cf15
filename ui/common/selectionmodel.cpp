// SPDX-License-Identifier: MIT
#include "selectionmodel.h"

namespace ridgeline::ui {

SelectionModel::SelectionModel(QObject* parent)
    : QObject(parent)
{
}

void SelectionModel::select(const KernelSelection& selection, const QObject* origin)
{
    if (selection == m_current)
        return;
    m_current = selection;
    Q_EMIT selectionChanged(m_current, origin);
}

} // namespace ridgeline::ui

#include "moc_selectionmodel.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)

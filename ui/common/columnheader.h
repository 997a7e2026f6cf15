// SPDX-License-Identifier: MIT
// The horizontal header of a table model whose columns each have a title and a tooltip, marked with
// QT_TR_NOOP in the model's translation context (its class name).
#pragma once

#include <QCoreApplication>
#include <QVariant>
#include <optional>
#include <span>

namespace ridgeline::ui {

// The title (DisplayRole) or tooltip (ToolTipRole) of column `section`; nullopt for anything else
// (a null tip: the column has no tooltip), which the model hands to QAbstractTableModel::headerData.
inline std::optional<QVariant> columnHeader(const char* context, std::span<const char* const> titles,
    std::span<const char* const> tips, int section, Qt::Orientation orientation, int role)
{
    if (orientation != Qt::Horizontal || section < 0 || static_cast<std::size_t>(section) >= titles.size())
        return std::nullopt;
    const auto column = static_cast<std::size_t>(section);
    if (role == Qt::DisplayRole)
        return QCoreApplication::translate(context, titles[column]);
    if (role == Qt::ToolTipRole && column < tips.size() && tips[column] != nullptr)
        return QCoreApplication::translate(context, tips[column]);
    return std::nullopt;
}

} // namespace ridgeline::ui

// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QAbstractItemView;

namespace ridgeline::ui {

// The selected rows of a table view as tab-separated text: a header line, then one line per row
// in view order, visible columns only (what a spreadsheet paste expects).
QString selectedRowsAsText(const QAbstractItemView* view);

} // namespace ridgeline::ui

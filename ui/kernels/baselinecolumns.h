// SPDX-License-Identifier: MIT
// Where the kernel table shows the Baseline and Δ time columns: the model appends them (so no
// other column's index moves); the header shows them right after Total, sized to their content.
#pragma once

class QTableView;

namespace ridgeline::ui {

// `view` shows a KernelModel, directly or through a proxy; follows every insertion of the columns.
void placeBaselineColumnsAfterTotal(QTableView* view);

} // namespace ridgeline::ui

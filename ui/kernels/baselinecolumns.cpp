// SPDX-License-Identifier: MIT
#include "baselinecolumns.h"

#include "kernelmodel.h"

#include <QHeaderView>
#include <QTableView>

namespace ridgeline::ui {

void placeBaselineColumnsAfterTotal(QTableView* view)
{
    auto* header = view->horizontalHeader();
    QObject::connect(view->model(), &QAbstractItemModel::columnsInserted, view,
        [view, header](const QModelIndex& parent, int first, int last) {
            if (parent.isValid() || first != KernelModel::BaselineColumn || last != KernelModel::DeltaColumn)
                return;
            for (int column = KernelModel::BaselineColumn; column <= KernelModel::DeltaColumn; ++column) {
                const int after
                    = header->visualIndex(column == KernelModel::BaselineColumn ? int(KernelModel::TotalColumn)
                                                                                : int(KernelModel::BaselineColumn));
                header->moveSection(header->visualIndex(column), after + 1);
                view->resizeColumnToContents(column);
            }
        });
}

} // namespace ridgeline::ui

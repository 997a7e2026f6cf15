// SPDX-License-Identifier: MIT
// The base of a flat table model over a vector of rows whose columns each have a title and a
// tooltip (columnheader.h): it counts rows and columns, checks the index of data() and answers the
// header, so that a model says only what the cells of a row hold (rowData()).
#pragma once

#include "common/columnheader.h"

#include <QAbstractTableModel>
#include <span>
#include <vector>

namespace ridgeline::ui {

template <typename Row> class RowTableModel : public QAbstractTableModel {
public:
    const std::vector<Row>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_titles.size());
    }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override
    {
        if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
            return {};
        return rowData(m_rows[static_cast<std::size_t>(index.row())], index, role);
    }
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override
    {
        if (auto header = columnHeader(metaObject()->className(), m_titles, m_tips, section, orientation, role))
            return *header;
        return QAbstractTableModel::headerData(section, orientation, role);
    }

protected:
    // `titles` and `tips`: one per column, marked with QT_TR_NOOP in the model's class (its
    // translation context); static, they outlive the model.
    RowTableModel(std::span<const char* const> titles, std::span<const char* const> tips, QObject* parent)
        : QAbstractTableModel(parent)
        , m_titles(titles)
        , m_tips(tips)
    { }

    // What `role` of the cell at `index` holds, `row` being the row of that valid index.
    virtual QVariant rowData(const Row& row, const QModelIndex& index, int role) const = 0;

    // Replaces the rows (a model reset).
    void resetRows(std::vector<Row> rows)
    {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
    }

    std::vector<Row> m_rows;

private:
    std::span<const char* const> m_titles;
    std::span<const char* const> m_tips;
};

} // namespace ridgeline::ui

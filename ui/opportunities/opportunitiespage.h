// SPDX-License-Identifier: MIT
// The Opportunities page (issue 34): the whole job's time against its roofs in one line, the rows
// ranked by the GPU time they would give back at their roofs (operator shapes, kernels, copies;
// a bar per row), and the GPU time no roof could be put on, with the reason. Choosing a row selects
// its kernel in every view (the one with the most time: a selection holds one kernel) and says so
// in a status line; a kernel selected elsewhere selects the first row that holds it. The model
// comes with the document (core::sessionOpportunities, worked out off the GUI thread).
#pragma once

#include "common/selectionmodel.h"
#include "session/sessiondocument.h"

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace ridgeline::ui {

class OpportunityModel;
class UnrankedModel;

class OpportunitiesPage final : public QWidget {
    Q_OBJECT
public:
    explicit OpportunitiesPage(SelectionModel* selection, QWidget* parent = nullptr);

    // Null clears the page.
    void setDocument(SessionDocumentPtr doc);

    // Chooses ranked row `row` (core's order; -1 clears) as a click on it does.
    void chooseRow(int row);
    // The chosen ranked row in core's order; -1 when none.
    int chosenRow() const;

    OpportunityModel* model() const { return m_model; }
    UnrankedModel* unrankedModel() const { return m_unrankedModel; }
    QTableView* view() const { return m_view; }
    QTableView* unrankedView() const { return m_unrankedView; }
    QLabel* summary() const { return m_summary; }
    QLabel* status() const { return m_status; }

Q_SIGNALS:
    // Ranked row `row` (core's order) was chosen, here or by following the selection; -1: none.
    void opportunityChosen(int row);

private:
    void fillSummary();
    void rankedRowChanged();
    void unrankedRowChanged();
    void selectKernelOf(const std::vector<core::OpportunityKernel>& kernels, const QString& rowName);
    void follow(const KernelSelection& selection, const QObject* origin);
    QString kernelName(const core::OpportunityKernel& kernel) const;

    SelectionModel* m_selection;
    SessionDocumentPtr m_doc;
    OpportunityModel* m_model;
    UnrankedModel* m_unrankedModel;
    QSortFilterProxyModel* m_proxy;
    QSortFilterProxyModel* m_unrankedProxy;
    QTableView* m_view;
    QTableView* m_unrankedView;
    QWidget* m_rankedBox = nullptr;
    QWidget* m_unrankedBox = nullptr;
    QLabel* m_summary;
    QLabel* m_unrankedTitle;
    QLabel* m_status;
    bool m_following = false; // choosing a row to follow the selection: select nothing back
};

} // namespace ridgeline::ui

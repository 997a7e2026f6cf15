// SPDX-License-Identifier: MIT
// Everything about the selected kernel (or launch): its figures with units, ceilings and their
// source, the verdict sentence and what to try, the roofline position in numbers, the launch
// configuration and the raw counters, and the PyTorch operators that launched it. The summary
// shows at once; configurations, counters and the operator stack are read from the session file
// off the GUI thread.
#pragma once

#include "common/selectionmodel.h"
#include "detailsoperators.h"
#include "ridgeline/core/analysis/kernelcompare.h"
#include "ridgeline/core/analysis/kerneldetails.h"
#include "ridgeline/core/analysis/ncuestimates.h"
#include "session/sessiondocument.h"

#include <QWidget>
#include <optional>
#include <vector>

class QTextBrowser;

namespace ridgeline::ui {

class DetailsPane final : public QWidget {
    Q_OBJECT
public:
    explicit DetailsPane(SelectionModel* selection, QWidget* parent = nullptr);

    void setDocument(SessionDocumentPtr doc);
    // The session to compare with: the kernel's baseline figures and changes; null: none.
    void setBaseline(SessionDocumentPtr baseline);
    void showSelection(const KernelSelection& selection);
    // The ranked row chosen on the Opportunities page (-1: none): its advice is shown while the
    // selected kernel is one of its kernels.
    void setOpportunity(int row);

    QTextBrowser* browser() const { return m_browser; }
    QWidget* exportWidget() { return this; }
    bool isLoading() const { return m_loading; }

Q_SIGNALS:
    void detailsLoaded(); // launch configurations and counters of the current selection are shown

private:
    struct Loaded {
        quint64 generation = 0;
        std::optional<core::KernelDetails> details;
        QString error;
        std::optional<OperatorStack> stack; // with operators in the session
        QString stackError;
        std::optional<std::vector<core::NcuEstimate>> launchNcu; // a selected launch's ncu rule results
    };
    void render();
    void load();
    void finished(Loaded loaded);
    void compare();

    SessionDocumentPtr m_doc;
    KernelSelection m_selection;
    const core::KernelSummary* m_kernel = nullptr;
    std::size_t m_kernelIndex = 0; // of m_kernel in the document's kernels
    SessionDocumentPtr m_baseline;
    core::KernelComparison m_comparison;
    std::optional<core::KernelDetails> m_details;
    QString m_error;
    std::optional<OperatorStack> m_stack;
    QString m_stackError;
    std::optional<std::vector<core::NcuEstimate>> m_launchNcu;
    bool m_loading = false;
    quint64 m_generation = 0;
    int m_opportunity = -1;
    QTextBrowser* m_browser;
};

} // namespace ridgeline::ui

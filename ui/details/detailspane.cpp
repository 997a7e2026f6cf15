// SPDX-License-Identifier: MIT
#include "detailspane.h"

#include "detailshtml.h"
#include "ridgeline/core/store/sessionreader.h"

#include <QFutureWatcher>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace ridgeline::ui {

DetailsPane::DetailsPane(SelectionModel* selection, QWidget* parent)
    : QWidget(parent)
    , m_browser(new QTextBrowser(this))
{
    m_browser->setOpenLinks(false);
    m_browser->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_browser);
    if (selection) {
        // The pane never selects anything itself: it follows every change, whoever made it.
        connect(selection, &SelectionModel::selectionChanged, this,
            [this](const KernelSelection& s, const QObject*) { showSelection(s); });
        m_selection = selection->current();
    }
    render();
}

void DetailsPane::setDocument(SessionDocumentPtr doc)
{
    m_doc = std::move(doc);
    m_opportunity = -1;
    compare();
    showSelection(m_selection);
}

void DetailsPane::setBaseline(SessionDocumentPtr baseline)
{
    m_baseline = std::move(baseline);
    compare();
    render();
}

void DetailsPane::setOpportunity(int row)
{
    m_opportunity = row;
    render();
}

void DetailsPane::compare()
{
    m_comparison = m_doc && m_baseline ? core::compareKernels(m_doc->report.kernels, m_baseline->report.kernels)
                                       : core::KernelComparison {};
}

void DetailsPane::showSelection(const KernelSelection& selection)
{
    m_selection = selection;
    m_kernel = nullptr;
    m_details.reset();
    m_error.clear();
    m_stack.reset();
    m_stackError.clear();
    m_launchNcu.reset();
    ++m_generation; // results of earlier requests are dropped
    if (m_doc && !selection.isEmpty()) {
        const auto& kernels = m_doc->report.kernels;
        for (std::size_t i = 0; i < kernels.size(); ++i) {
            if (kernels[i].nameId == selection.nameId && kernels[i].deviceId == selection.deviceId) {
                m_kernel = &kernels[i];
                m_kernelIndex = i;
            }
        }
    }
    m_loading = m_kernel != nullptr;
    render();
    if (m_loading)
        load();
}

void DetailsPane::load()
{
    const std::string path = m_doc->path.toStdString();
    const auto nameId = m_selection.nameId, deviceId = m_selection.deviceId, launchId = m_selection.launchId;
    const quint64 generation = m_generation;
    auto operators = m_doc->operators; // shared and read-only: safe on the worker
    auto* watcher = new QFutureWatcher<Loaded>(this);
    connect(watcher, &QFutureWatcher<Loaded>::finished, this, [this, watcher] {
        finished(watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run([path, nameId, deviceId, launchId, generation, operators] {
        Loaded loaded;
        loaded.generation = generation;
        auto reader = core::SessionReader::open(path);
        if (reader.hasError()) {
            loaded.error = QString::fromStdString(reader.error().message);
            return loaded;
        }
        auto details = core::loadKernelDetails(reader.value(), nameId, deviceId, launchId);
        if (details.hasError())
            loaded.error = QString::fromStdString(details.error().message);
        else
            loaded.details = std::move(details).value();
        if (launchId >= 0) {
            auto ncu = core::ncuEstimatesOfLaunch(reader.value(), launchId);
            if (ncu.hasError() && loaded.error.isEmpty())
                loaded.error = QString::fromStdString(ncu.error().message);
            else if (ncu.ok())
                loaded.launchNcu = std::move(ncu).value();
        }
        if (operators) {
            auto stack = loadOperatorStack(reader.value(), operators->lookup, nameId, deviceId, launchId);
            if (stack.hasError())
                loaded.stackError = QString::fromStdString(stack.error().message);
            else
                loaded.stack = std::move(stack).value();
        }
        return loaded;
    }));
}

void DetailsPane::finished(Loaded loaded)
{
    if (loaded.generation != m_generation)
        return; // the selection moved on
    m_loading = false;
    m_details = std::move(loaded.details);
    m_error = loaded.error.isEmpty() ? QString() : tr("Cannot read the launches: %1").arg(loaded.error);
    m_stack = std::move(loaded.stack);
    m_launchNcu = std::move(loaded.launchNcu);
    m_stackError = loaded.stackError.isEmpty() ? QString() : tr("Cannot read the operators: %1").arg(loaded.stackError);
    render();
    Q_EMIT detailsLoaded();
}

void DetailsPane::render()
{
    DetailsInput input;
    input.kernel = m_kernel;
    input.launchId = m_selection.launchId;
    input.details = m_details ? &*m_details : nullptr;
    input.loading = m_loading;
    input.loadError = m_error;
    if (m_doc && m_kernel) {
        for (const auto& d : m_doc->report.devices) {
            if (d.id == m_kernel->deviceId)
                input.device = &d;
        }
    }
    if (m_kernel && m_baseline) {
        input.baseline.path = m_baseline->path;
        input.baseline.delta = m_comparison.deltaOf(m_kernelIndex);
        if (input.baseline.delta && input.baseline.delta->baseline)
            input.baseline.before = &m_baseline->report.kernels.at(*input.baseline.delta->baseline);
    }
    if (m_selection.launchId >= 0) {
        input.ncu = { m_launchNcu ? &*m_launchNcu : nullptr, true };
    } else if (m_doc && m_kernel) {
        const auto ncu = m_doc->report.ncuEstimates.find({ m_kernel->nameId, m_kernel->deviceId });
        if (ncu != m_doc->report.ncuEstimates.end())
            input.ncu = { &ncu->second, false };
    }
    OperatorDetails operators;
    if (m_doc && m_kernel && m_doc->operators) {
        operators.operators = m_doc->operators.get();
        operators.nameId = m_selection.nameId;
        operators.deviceId = m_selection.deviceId;
        operators.launch = m_selection.launchId >= 0;
        operators.stack = m_stack ? &*m_stack : nullptr;
        operators.error = m_stackError;
        input.operators = &operators;
    }
    OpportunityDetails opportunity;
    if (m_doc && m_doc->opportunities) {
        opportunity.opportunities = m_doc->opportunities.get();
        opportunity.chosenRow = m_opportunity;
        opportunity.nameId = m_kernel ? m_selection.nameId : -1;
        opportunity.deviceId = m_kernel ? m_selection.deviceId : -1;
        input.opportunity = &opportunity;
    }
    m_browser->setHtml(detailsHtml(input));
}

} // namespace ridgeline::ui

#include "moc_detailspane.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)

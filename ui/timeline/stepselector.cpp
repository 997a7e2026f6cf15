// SPDX-License-Identifier: MIT
#include "stepselector.h"

#include "common/timeticks.h"
#include "ridgeline/core/base/saturating.h"

#include <QSignalBlocker>
#include <algorithm>

namespace ridgeline::ui {

namespace {

// The entry of step `index` of the list is at combo index + 1 (entry 0 is the whole trace).
constexpr int kFirstStepEntry = 1;

QString stepDuration(const core::ProfilerStep& step, int decimals)
{
    const double ms = static_cast<double>(ridgeline::core::saturatingSub(step.window.endNs, step.window.startNs)) / 1e6;
    return QString::number(ms, 'f', decimals) + QStringLiteral(" ms");
}

} // namespace

StepSelector::StepSelector(QWidget* parent)
    : QComboBox(parent)
{
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(this, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT stepChosen(); });
    setSteps({});
}

void StepSelector::setSteps(std::vector<core::ProfilerStep> steps)
{
    const QSignalBlocker blocker(this);
    m_steps = std::move(steps);
    clear();
    addItem(tr("Whole trace"));
    for (const auto& step : m_steps)
        addItem(entryText(step), QVariant::fromValue(step.number));
    setCurrentIndex(0);
    setEnabled(!m_steps.empty());
    setToolTip(m_steps.empty()
            ? tr("This session has no PyTorch profiler steps (\"ProfilerStep#N\" ranges, written by "
                 "torch.profiler's prof.step()).")
            : tr("Zoom the timeline to one PyTorch profiler step and show its figures over that step only "
                 "(View ▸ Profiler Step; Ctrl+] and Ctrl+[ step through them). A step's window is its GPU-side "
                 "range where the trace has one, else its host range."));
}

std::optional<core::ProfilerStep> StepSelector::currentStep() const
{
    const int index = currentIndex() - kFirstStepEntry;
    if (index < 0 || index >= static_cast<int>(m_steps.size()))
        return std::nullopt;
    return m_steps[static_cast<std::size_t>(index)];
}

bool StepSelector::chooseStep(std::optional<std::int64_t> number)
{
    if (!number) {
        setCurrentIndex(0);
        return true;
    }
    const auto it = std::find_if(
        m_steps.begin(), m_steps.end(), [&number](const core::ProfilerStep& s) { return s.number == *number; });
    if (it == m_steps.end())
        return false;
    setCurrentIndex(kFirstStepEntry + static_cast<int>(it - m_steps.begin()));
    return true;
}

void StepSelector::chooseNeighbour(int direction)
{
    if (m_steps.empty())
        return;
    const int steps = static_cast<int>(m_steps.size());
    const int index = currentIndex() - kFirstStepEntry; // -1: the whole trace
    int next = index < 0 ? (direction > 0 ? 0 : steps - 1) : index + direction;
    next = std::clamp(next, 0, steps - 1);
    setCurrentIndex(kFirstStepEntry + next);
}

QString StepSelector::entryText(const core::ProfilerStep& step)
{
    return tr("Step %1 (%2, %3)")
        .arg(step.number)
        .arg(step.gpuSide ? tr("GPU-side range") : tr("host range"), stepDuration(step, 1));
}

QString StepSelector::windowText(const core::ProfilerStep& step)
{
    return tr("Profiler step %1: %2, %3")
        .arg(step.number)
        .arg(stepDuration(step, 3), step.gpuSide ? tr("GPU-side range") : tr("host range"));
}

} // namespace ridgeline::ui

#include "moc_stepselector.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)

// SPDX-License-Identifier: MIT
// The profiler-step selector (issue 35): "Whole trace", then one entry per PyTorch profiler step of
// the session ("Step 6 (GPU-side range, 34.9 ms)"), each standing for its window (profilersteps.h).
// Disabled, with a tooltip saying why, when the session has no steps. It holds the choice only: the
// timeline page zooms to the window and works out the figures over it.
#pragma once

#include "ridgeline/core/timeline/profilersteps.h"

#include <QComboBox>
#include <cstdint>
#include <optional>
#include <vector>

namespace ridgeline::ui {

class StepSelector final : public QComboBox {
    Q_OBJECT
public:
    explicit StepSelector(QWidget* parent = nullptr);

    // Lists `steps` (by number) and goes back to the whole trace, without emitting stepChosen.
    void setSteps(std::vector<core::ProfilerStep> steps);
    const std::vector<core::ProfilerStep>& steps() const { return m_steps; }
    // The chosen step; empty for the whole trace.
    std::optional<core::ProfilerStep> currentStep() const;
    // Chooses step `number` (empty: the whole trace); false, changing nothing, when there is no such step.
    bool chooseStep(std::optional<std::int64_t> number);
    // The step after (+1) or before (-1) the chosen one; from the whole trace, the first or last step.
    void chooseNeighbour(int direction);

    // "Step 6 (GPU-side range, 34.9 ms)": the entry of `step`.
    static QString entryText(const core::ProfilerStep& step);
    // "Profiler step 6: 34.892 ms, GPU-side range": which window the figures over `step` cover.
    static QString windowText(const core::ProfilerStep& step);

Q_SIGNALS:
    // The user (or chooseStep) chose another entry; currentStep() says which.
    void stepChosen();

private:
    std::vector<core::ProfilerStep> m_steps;
};

} // namespace ridgeline::ui

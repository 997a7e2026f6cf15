// SPDX-License-Identifier: MIT
// The one selection shared by every view (kernel table, roofline, timeline, details): a kernel
// (name on a device) and optionally one launch of it. Views call select() when the user picks
// something and follow selectionChanged(); a view ignores changes it made itself (`origin`).
#pragma once

#include <QObject>
#include <QtGlobal>

namespace ridgeline::ui {

struct KernelSelection {
    qint64 nameId = -1; // kernel_names id (core::KernelSummary::nameId); -1: nothing selected
    qint64 deviceId = -1; // core::KernelSummary::deviceId
    qint64 launchId = -1; // kernels.id of one launch; -1: the kernel as a whole
    bool isEmpty() const { return nameId < 0; }
    bool operator==(const KernelSelection&) const = default;
};

class SelectionModel final : public QObject {
    Q_OBJECT
public:
    explicit SelectionModel(QObject* parent = nullptr);

    KernelSelection current() const { return m_current; }
    // Emits selectionChanged when the selection differs from the current one.
    void select(const KernelSelection& selection, const QObject* origin = nullptr);
    void clear(const QObject* origin = nullptr) { select(KernelSelection {}, origin); }

Q_SIGNALS:
    void selectionChanged(const ridgeline::ui::KernelSelection& selection, const QObject* origin);

private:
    KernelSelection m_current;
};

} // namespace ridgeline::ui

Q_DECLARE_METATYPE(ridgeline::ui::KernelSelection)

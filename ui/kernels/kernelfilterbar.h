// SPDX-License-Identifier: MIT
#pragma once

#include "ridgeline/core/model/model.h"
#include "session/sessiondocument.h"

#include <QSet>
#include <QWidget>
#include <optional>

class QComboBox;
class QLineEdit;

namespace ridgeline::ui {

class KernelFilterProxy;

// ByOperator / ByModule: a tree of PyTorch operators (or module paths), then the kernels each launched.
enum class KernelGrouping { ByName, PerLaunch, ByOperator, ByModule };

// Text, verdict, device and rank filters above the kernel table, plus the grouping switch.
// Applies the filters to the proxies it is given.
class KernelFilterBar final : public QWidget {
    Q_OBJECT
public:
    explicit KernelFilterBar(QWidget* parent = nullptr);

    void addProxy(KernelFilterProxy* proxy);
    // Offers the verdicts, devices and ranks of the session.
    void setDocument(const SessionDocumentPtr& document);

    KernelGrouping grouping() const;
    void setGrouping(KernelGrouping grouping);
    void setTextFilter(const QString& text);
    void setVerdictFilter(std::optional<core::VerdictClass> verdict); // one offered, or nullopt for all
    void setDeviceFilter(std::optional<qint64> deviceId);
    void setRankFilter(std::optional<int> rank);
    void clear();

    // The filters as chosen, for views that are not KernelFilterProxy (the grouped tree).
    QString textFilter() const;
    std::optional<core::VerdictClass> verdictFilter() const; // nullopt: every verdict
    std::optional<qint64> deviceFilter() const;
    // The devices of the chosen rank; nullopt when no rank is chosen.
    std::optional<QSet<qint64>> rankDevices() const;

Q_SIGNALS:
    void groupingChanged(ridgeline::ui::KernelGrouping grouping);
    void filtersChanged(); // after the proxies were given the new filters

private:
    void apply();

    QLineEdit* m_text;
    QComboBox* m_verdict;
    QComboBox* m_device;
    QComboBox* m_rank;
    QComboBox* m_grouping;
    QList<KernelFilterProxy*> m_proxies;
    QHash<int, QSet<qint64>> m_devicesOfRank;
};

} // namespace ridgeline::ui

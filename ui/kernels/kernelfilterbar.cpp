// SPDX-License-Identifier: MIT
#include "kernelfilterbar.h"

#include "common/verdictcolors.h"
#include "kernelfilterproxy.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPixmap>
#include <set>

namespace ridgeline::ui {

namespace {

QIcon swatch(const QColor& color)
{
    QPixmap pixmap(12, 12);
    pixmap.fill(color);
    return QIcon(pixmap);
}

} // namespace

KernelFilterBar::KernelFilterBar(QWidget* parent)
    : QWidget(parent)
    , m_text(new QLineEdit(this))
    , m_verdict(new QComboBox(this))
    , m_device(new QComboBox(this))
    , m_rank(new QComboBox(this))
    , m_grouping(new QComboBox(this))
{
    m_text->setPlaceholderText(tr("Filter kernels by name…"));
    m_text->setClearButtonEnabled(true);
    m_verdict->setToolTip(tr("Only kernels with this verdict"));
    m_device->setToolTip(tr("Only kernels on this device"));
    m_rank->setToolTip(tr("Only kernels of this distributed rank"));
    m_grouping->addItem(tr("One row per kernel"), int(KernelGrouping::ByName));
    m_grouping->addItem(tr("One row per launch"), int(KernelGrouping::PerLaunch));
    m_grouping->addItem(tr("By operator"), int(KernelGrouping::ByOperator));
    m_grouping->addItem(tr("By module"), int(KernelGrouping::ByModule));
    m_grouping->setToolTip(tr("Group the table by kernel name and device, list every launch, or group the kernels "
                              "under the PyTorch operator or module that launched them"));

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_verdict);
    layout->addWidget(m_device);
    layout->addWidget(m_rank);
    layout->addWidget(m_grouping);

    connect(m_text, &QLineEdit::textChanged, this, &KernelFilterBar::apply);
    for (auto* combo : { m_verdict, m_device, m_rank })
        connect(combo, &QComboBox::currentIndexChanged, this, &KernelFilterBar::apply);
    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT groupingChanged(grouping()); });
    setDocument(nullptr);
}

void KernelFilterBar::addProxy(KernelFilterProxy* proxy)
{
    m_proxies.append(proxy);
    apply();
}

void KernelFilterBar::setDocument(const SessionDocumentPtr& document)
{
    const QVariant oldVerdict = m_verdict->currentData(), oldDevice = m_device->currentData(),
                   oldRank = m_rank->currentData();
    const QSignalBlocker blockVerdict(m_verdict), blockDevice(m_device), blockRank(m_rank);
    m_verdict->clear();
    m_device->clear();
    m_rank->clear();
    m_devicesOfRank.clear();
    m_verdict->addItem(tr("All verdicts"), QVariant());
    m_device->addItem(tr("All devices"), QVariant());
    m_rank->addItem(tr("All ranks"), QVariant());
    if (document) {
        std::set<core::VerdictClass> verdicts;
        for (const auto& k : document->report.kernels)
            verdicts.insert(k.analysis.verdict);
        // The item's data is the verdict (core::VerdictClass as an int), its text only what is shown.
        for (const auto verdict : core::kVerdictClasses) {
            if (verdicts.contains(verdict))
                m_verdict->addItem(swatch(verdictColor(verdict)), QString::fromLatin1(core::toString(verdict)),
                    static_cast<int>(verdict));
        }
        for (const auto& d : document->report.devices)
            m_device->addItem(QStringLiteral("%1: %2").arg(d.id).arg(QString::fromStdString(d.name)), qlonglong(d.id));
        for (const auto& t : document->report.timeline) {
            if (t.rank >= 0)
                m_devicesOfRank[t.rank].insert(t.deviceId);
        }
        QList<int> ranks = m_devicesOfRank.keys();
        std::sort(ranks.begin(), ranks.end());
        for (int rank : ranks)
            m_rank->addItem(tr("Rank %1").arg(rank), rank);
    }
    m_device->setVisible(m_device->count() > 2);
    m_rank->setVisible(m_rank->count() > 2);
    // Filters the new document still offers stay chosen.
    m_verdict->setCurrentIndex(oldVerdict.isValid() ? std::max(0, m_verdict->findData(oldVerdict)) : 0);
    m_device->setCurrentIndex(oldDevice.isValid() ? std::max(0, m_device->findData(oldDevice)) : 0);
    m_rank->setCurrentIndex(oldRank.isValid() ? std::max(0, m_rank->findData(oldRank)) : 0);
    apply();
}

KernelGrouping KernelFilterBar::grouping() const
{
    return static_cast<KernelGrouping>(m_grouping->currentData().toInt());
}

void KernelFilterBar::setGrouping(KernelGrouping grouping)
{
    m_grouping->setCurrentIndex(m_grouping->findData(int(grouping)));
}

void KernelFilterBar::setTextFilter(const QString& text)
{
    m_text->setText(text);
}

void KernelFilterBar::setVerdictFilter(std::optional<core::VerdictClass> verdict)
{
    m_verdict->setCurrentIndex(verdict ? std::max(0, m_verdict->findData(static_cast<int>(*verdict))) : 0);
}

void KernelFilterBar::setDeviceFilter(std::optional<qint64> deviceId)
{
    m_device->setCurrentIndex(deviceId ? std::max(0, m_device->findData(qlonglong(*deviceId))) : 0);
}

void KernelFilterBar::setRankFilter(std::optional<int> rank)
{
    m_rank->setCurrentIndex(rank ? std::max(0, m_rank->findData(*rank)) : 0);
}

void KernelFilterBar::clear()
{
    m_text->clear();
    m_verdict->setCurrentIndex(0);
    m_device->setCurrentIndex(0);
    m_rank->setCurrentIndex(0);
}

QString KernelFilterBar::textFilter() const
{
    return m_text->text();
}

std::optional<core::VerdictClass> KernelFilterBar::verdictFilter() const
{
    const QVariant verdict = m_verdict->currentData();
    return verdict.isValid() ? std::optional(static_cast<core::VerdictClass>(verdict.toInt())) : std::nullopt;
}

std::optional<qint64> KernelFilterBar::deviceFilter() const
{
    const QVariant device = m_device->currentData();
    return device.isValid() ? std::optional<qint64>(device.toLongLong()) : std::nullopt;
}

std::optional<QSet<qint64>> KernelFilterBar::rankDevices() const
{
    const QVariant rank = m_rank->currentData();
    return rank.isValid() ? std::optional<QSet<qint64>>(m_devicesOfRank.value(rank.toInt())) : std::nullopt;
}

void KernelFilterBar::apply()
{
    const QVariant device = m_device->currentData();
    const QVariant rank = m_rank->currentData();
    for (auto* proxy : m_proxies) {
        proxy->setTextFilter(m_text->text());
        proxy->setVerdictFilter(verdictFilter());
        proxy->setDeviceFilter(device.isValid() ? std::optional<qint64>(device.toLongLong()) : std::nullopt);
        if (rank.isValid())
            proxy->setRankFilter(rank.toInt(), m_devicesOfRank.value(rank.toInt()));
        else
            proxy->setRankFilter(std::nullopt, {});
    }
    Q_EMIT filtersChanged();
}

} // namespace ridgeline::ui

#include "moc_kernelfilterbar.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)

// SPDX-License-Identifier: MIT
#include "recentfiles.h"

#include <QFileInfo>
#include <QSettings>

namespace ridgeline::ui {

namespace {
const QString kKey = QStringLiteral("recentFiles");
}

RecentFiles::RecentFiles(QSettings* settings, QObject* parent)
    : QObject(parent)
    , m_settings(settings)
{ }

QStringList RecentFiles::stored() const
{
    if (m_settings)
        return m_settings->value(kKey).toStringList();
    return QSettings().value(kKey).toStringList();
}

void RecentFiles::store(const QStringList& files)
{
    if (m_settings)
        m_settings->setValue(kKey, files);
    else
        QSettings().setValue(kKey, files);
    Q_EMIT changed();
}

QStringList RecentFiles::files() const
{
    QStringList existing;
    for (const auto& file : stored()) {
        if (QFileInfo::exists(file) && !existing.contains(file))
            existing.append(file);
    }
    return existing.mid(0, kMaximum);
}

void RecentFiles::add(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(absolute);
    list.prepend(absolute);
    store(list.mid(0, kMaximum));
}

void RecentFiles::remove(const QString& path)
{
    QStringList list = stored();
    list.removeAll(QFileInfo(path).absoluteFilePath());
    store(list);
}

void RecentFiles::clear()
{
    store({});
}

} // namespace ridgeline::ui

#include "moc_recentfiles.cpp" // Qt's meta-object code compiled with this file, not alone (docs/CI.md)

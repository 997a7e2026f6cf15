// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QStringList>

class QSettings;

namespace ridgeline::ui {

// The most recently opened sessions, newest first, kept in QSettings under "recentFiles".
// Files that no longer exist are dropped whenever the list is read.
class RecentFiles final : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaximum = 10;

    // `settings` may be null (the application's default QSettings); it must outlive this object.
    explicit RecentFiles(QSettings* settings = nullptr, QObject* parent = nullptr);

    QStringList files() const;
    void add(const QString& path);
    void remove(const QString& path);
    void clear();

Q_SIGNALS:
    void changed();

private:
    QStringList stored() const;
    void store(const QStringList& files);

    QSettings* m_settings;
};

} // namespace ridgeline::ui

// SPDX-License-Identifier: MIT
#include "examplesessions.h"

#include "ridgeline/core/store/sessionreader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSet>
#include <algorithm>

namespace ridgeline::ui {

QStringList defaultExampleDirectories()
{
    const QDir bin(QCoreApplication::applicationDirPath());
    return { QDir::cleanPath(bin.filePath(QStringLiteral("../share/ridgeline/examples"))),
        QDir::cleanPath(bin.filePath(QStringLiteral("../../resources/examples"))) };
}

QList<ExampleSession> findExampleSessions(const QStringList& directories)
{
    QList<ExampleSession> out;
    QSet<QString> titles;
    for (const auto& directory : directories) {
        const auto files = QDir(directory).entryInfoList({ QStringLiteral("*.ridge") }, QDir::Files, QDir::Name);
        for (const QFileInfo& file : files) {
            ExampleSession example { file.absoluteFilePath(), file.completeBaseName(), {} };
            if (titles.contains(example.title))
                continue;
            titles.insert(example.title);
            // The note is the file's own word on where it comes from; a file that cannot be read
            // is still listed, and opening it says why.
            if (auto reader = core::SessionReader::open(example.path.toStdString()); reader.ok()) {
                if (auto meta = reader.value().meta(); meta.ok()) {
                    if (auto it = meta.value().find("origin.note"); it != meta.value().end())
                        example.note = QString::fromStdString(it->second);
                }
            }
            out.append(example);
        }
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.title < b.title; });
    return out;
}

} // namespace ridgeline::ui

// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace ridgeline::ui {

// A session bundled with Ridgeline (resources/examples: real traces imported, README there).
struct ExampleSession {
    QString path;
    QString title; // the file name without .ridge: "a100-linear-ncu"
    QString note; // the file's own `origin.note`, where it has one
};

// Where bundled examples are looked for, first match first: the installed data folder next to the
// program (`bin/../share/ridgeline/examples`, the .deb and the tarball), then the source tree of a
// build folder inside it (`build/bin/../../resources/examples`).
QStringList defaultExampleDirectories();

// Every *.ridge in `directories`, by title; a file found in two folders is listed once (the first).
QList<ExampleSession> findExampleSessions(const QStringList& directories);

} // namespace ridgeline::ui

// SPDX-License-Identifier: MIT
// Reads a .ridge file into a SessionDocument: the one function the worker thread runs when a
// session is opened (everything slow happens here, nothing of it on the GUI thread). Synchronous
// and Qt-free but for its strings; SessionOpener (sessionopener.h) runs it in the background.
#pragma once

#include "ridgeline/core/base/result.h"
#include "sessiondocument.h"

#include <QString>
#include <functional>

namespace ridgeline::ui {

struct ReadHooks {
    // 0..1000 with what is being done; called from the worker thread. May be empty.
    std::function<void(int permille, const QString& what)> progress;
    // Polled between stages; when it returns true loading stops with an error. May be empty.
    std::function<bool()> cancelled;
    // Called once with the document as far as the kernel table needs it (meta, devices,
    // ceilings, kernel summaries), before the slower stages (timeline analysis, and whatever is
    // added after it), so that the table can paint first. May be empty.
    std::function<void(const SessionDocument& tableStage)> tableReady;
    // Called once with the complete document but for its value warnings (`valuesChecked` false),
    // before the value checks (SQL over every table: minutes for a session of 100 M GPU ops), so
    // that every view shows the session first. May be empty; readSessionDocument returns the
    // document with its warnings either way.
    std::function<void(const SessionDocument& document)> documentReady;
};

core::Result<SessionDocument> readSessionDocument(const QString& path, const ReadHooks& hooks = {});

} // namespace ridgeline::ui

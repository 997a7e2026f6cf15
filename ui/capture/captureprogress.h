// SPDX-License-Identifier: MIT
// The machine-readable progress lines of `ridgeline capture --progress` (one per line on stderr):
//   ridgeline-progress: {"event": "started"|"running"|"merging"|"finished"|"error", ...}
// Pure parsing, no process: tested with recorded lines.
#pragma once

#include <QString>
#include <QStringView>
#include <optional>

namespace ridgeline::ui {

struct CaptureEvent {
    enum class Kind { Started, Running, Merging, Finished, Error };
    Kind kind = Kind::Started;
    qint64 pid = 0; // started
    QString output; // started, finished
    double seconds = 0; // running
    qint64 parts = 0; // running, merging
    qint64 kernels = 0; // running, finished
    QString status; // finished: "complete" | "partial"
    int exitCode = 0; // finished
    qint64 memops = 0; // finished
    QString message; // error
};

inline constexpr QStringView kCaptureProgressPrefix = u"ridgeline-progress: ";

// The event of one progress line (without its newline); nullopt for any other line (the
// launcher's and the target's ordinary output) and for a progress line whose JSON is not an
// object with a known "event".
std::optional<CaptureEvent> parseCaptureProgressLine(QStringView line);

} // namespace ridgeline::ui

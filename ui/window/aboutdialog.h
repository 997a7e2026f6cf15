// SPDX-License-Identifier: MIT
#pragma once

#include "session/sessiondocument.h"

#include <QString>

class QWidget;

namespace ridgeline::ui {

// Help ▸ About as rich text: version and, for the open session, where its data came from
// (meta "source", "origin" and every "origin.*" key: the bundled example names its trace's
// project, commit and licence there).
QString aboutText(const SessionDocument* document);
void showAboutDialog(QWidget* parent, const SessionDocumentPtr& document);

} // namespace ridgeline::ui

// SPDX-License-Identifier: MIT
// Session documents for the roofline and details tests: the small fixture (tests/support) and
// Nsight Compute CSV fixtures imported into sessions with counters.
#pragma once

#include "session/sessiondocument.h"
#include "tempdir.h"

#include <QPixmap>
#include <QString>
#include <string>

namespace ridgeline::testing {

// The document of a session file, as the app loads it (report and every ceiling); null on failure.
ui::SessionDocumentPtr loadDocument(const std::string& path);
ui::SessionDocumentPtr smallFixtureDocument(const TempDir& dir);
ui::SessionDocumentPtr ncuDocument(const TempDir& dir, const std::string& csv); // tests/data/ncu/<csv>
// The index of the kernel summary with this demangled name on this device, or -1.
int kernelIndex(const ui::SessionDocument& doc, const std::string& name, std::int64_t deviceId = 0);
// Saves a widget's picture for a person to look at; false when the picture is empty.
bool savePicture(const QPixmap& picture, const QString& name);

} // namespace ridgeline::testing

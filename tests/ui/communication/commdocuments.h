// SPDX-License-Identifier: MIT
// Documents for the Communication tests: real Kineto traces imported into sessions and read as the
// app reads them (ui::readSessionDocument), and the traces' own NCCL kernel starts, read with zlib
// and nlohmann::json independently of the importer.
#pragma once

#include "qtwarnings.h"
#include "session/sessiondocument.h"
#include "tempdir.h"

#include <QString>
#include <QWidget>
#include <cstdint>
#include <string>
#include <vector>

namespace ridgeline::testing {

// The trace_filter pair (ranks 0 and 1) in one session; null on failure.
ui::SessionDocumentPtr twoRankDocument(const TempDir& dir);
// nccl_parser_config/nccl_data (one A100 rank, all-reduces and broadcasts with sizes).
ui::SessionDocumentPtr ncclDataDocument(const TempDir& dir);
// Per rank of the trace_filter pair, its NCCL kernels' starts (ns) in order.
std::vector<std::vector<std::int64_t>> twoRankNcclStarts();
// Saves a picture to $RIDGELINE_SCREENSHOT_DIR (when set) for a person to look at.
void saveScreenshot(const QWidget& widget, const QString& name);

// The base of a test class on both documents: its initTestCase() calls loadDocuments(); Qt warnings
// fail its tests as in QtWarningTest.
class CommDocumentsTest : public QtWarningTest {
protected:
    // Records Qt warnings from here on, then imports both documents; false when one fails.
    bool loadDocuments()
    {
        installQtWarningRecorder();
        m_one = ncclDataDocument(m_dir);
        m_two = twoRankDocument(m_dir);
        return m_one && m_two;
    }

    TempDir m_dir;
    ui::SessionDocumentPtr m_one; // ncclDataDocument()
    ui::SessionDocumentPtr m_two; // twoRankDocument()
};

} // namespace ridgeline::testing

// SPDX-License-Identifier: MIT
#include "commdocuments.h"

#include "gunzip.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "session/documentreader.h"
#include "testutil.h"
#include "tracejson.h"

#include <QDir>
#include <QPixmap>
#include <QWidget>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace ridgeline::testing {

namespace {

ui::SessionDocumentPtr imported(const std::vector<std::string>& traces, const std::string& session)
{
    std::vector<std::string> paths;
    for (const auto& t : traces)
        paths.push_back(testDataPath(t));
    if (!collectors::importKineto(paths, session, false).ok())
        return nullptr;
    auto doc = ui::readSessionDocument(QString::fromStdString(session));
    if (doc.hasError())
        return nullptr;
    return std::make_shared<const ui::SessionDocument>(std::move(doc).value());
}

} // namespace

ui::SessionDocumentPtr twoRankDocument(const TempDir& dir)
{
    return imported({ "kineto/trace_filter/sampled_rank-0.json.gz", "kineto/trace_filter/sampled_rank-1.json.gz" },
        dir.file("two-ranks.ridge"));
}

ui::SessionDocumentPtr ncclDataDocument(const TempDir& dir)
{
    return imported({ "kineto/nccl_parser_config/nccl_data.json.gz" }, dir.file("nccl-data.ridge"));
}

std::vector<std::vector<std::int64_t>> twoRankNcclStarts()
{
    std::vector<std::vector<std::int64_t>> starts(2);
    for (int r = 0; r < 2; ++r) {
        const auto doc = nlohmann::json::parse(gunzipFile(testDataPath(
            r == 0 ? "kineto/trace_filter/sampled_rank-0.json.gz" : "kineto/trace_filter/sampled_rank-1.json.gz")));
        for (const auto& ev : doc["traceEvents"]) {
            if (ridgeline::testing::isNcclKernelEvent(ev))
                starts[static_cast<std::size_t>(r)].push_back(ridgeline::testing::microsToNs(ev["ts"]));
        }
        std::sort(starts[static_cast<std::size_t>(r)].begin(), starts[static_cast<std::size_t>(r)].end());
    }
    return starts;
}

void saveScreenshot(const QWidget& widget, const QString& name)
{
    const QString dir = qEnvironmentVariable("RIDGELINE_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        const_cast<QWidget&>(widget).grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

} // namespace ridgeline::testing

// SPDX-License-Identifier: MIT
#include "documents.h"

#include "fixtures.h"
#include "ridgeline/collectors/importers/ncucsvimporter.h"
#include "ridgeline/core/output/report.h"
#include "ridgeline/core/store/sessionreader.h"

#include <QDir>
#include <QImage>
#include <QPixmap>

namespace ridgeline::testing {

ui::SessionDocumentPtr loadDocument(const std::string& path)
{
    auto reader = core::SessionReader::open(path);
    if (reader.hasError())
        return nullptr;
    auto report = core::buildKernelReport(reader.value());
    auto ceilings = reader.value().ceilings();
    if (report.hasError() || ceilings.hasError())
        return nullptr;
    auto doc = std::make_shared<ui::SessionDocument>();
    doc->path = QString::fromStdString(path);
    doc->report = std::move(report).value();
    doc->ceilings = std::move(ceilings).value();
    return doc;
}

ui::SessionDocumentPtr smallFixtureDocument(const TempDir& dir)
{
    const auto path = dir.file("small.ridge");
    if (writeSmallFixture(path).hasError())
        return nullptr;
    return loadDocument(path);
}

ui::SessionDocumentPtr ncuDocument(const TempDir& dir, const std::string& csv)
{
    const auto path = dir.file(csv + ".ridge");
    auto imported = collectors::importNcuCsv(std::string(RIDGELINE_TEST_DATA_DIR) + "/ncu/" + csv, path, true);
    if (imported.hasError())
        return nullptr;
    return loadDocument(path);
}

int kernelIndex(const ui::SessionDocument& doc, const std::string& name, std::int64_t deviceId)
{
    const auto& kernels = doc.report.kernels;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        if (kernels[i].name == name && kernels[i].deviceId == deviceId)
            return static_cast<int>(i);
    }
    return -1;
}

bool savePicture(const QPixmap& picture, const QString& name)
{
    if (picture.isNull() || picture.width() == 0 || picture.height() == 0)
        return false;
    // Something drawn: more than one colour.
    const QImage image = picture.toImage();
    const QRgb first = image.pixel(0, 0);
    bool varied = false;
    for (int y = 0; y < image.height() && !varied; y += 3) {
        for (int x = 0; x < image.width() && !varied; x += 3)
            varied = image.pixel(x, y) != first;
    }
    if (!varied)
        return false;
    picture.save(QDir::tempPath() + QStringLiteral("/ridgeline-") + name + QStringLiteral(".png"));
    return true;
}

} // namespace ridgeline::testing

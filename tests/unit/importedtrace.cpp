// SPDX-License-Identifier: MIT
#include "importedtrace.h"

#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "testutil.h"

#include <gtest/gtest.h>

namespace ridgeline::testing {

std::unique_ptr<ImportedTrace> importKinetoTrace(const std::string& relative)
{
    auto out = std::make_unique<ImportedTrace>();
    const auto path = out->dir.file("s.ridge");
    auto imported = collectors::importKineto({ testDataPath(relative) }, path, false);
    EXPECT_TRUE(imported.ok()) << (imported.ok() ? "" : imported.error().message);
    auto reader = core::SessionReader::open(path);
    EXPECT_TRUE(reader.ok()) << (reader.ok() ? "" : reader.error().message);
    if (reader.ok())
        out->reader.emplace(std::move(reader).value());
    return out;
}

} // namespace ridgeline::testing

// SPDX-License-Identifier: MIT
// A part file in a temporary directory and a translator writing into it, as the injection
// library sets them up, with a callback-name table standing in for cuptiGetCallbackName.
#pragma once

#include "activitytranslate.h"
#include "partwriter.h"
#include "ridgeline/core/store/sessionreader.h"
#include "tempdir.h"

#include <gtest/gtest.h>
#include <optional>
#include <vector>

namespace ridgeline::testing {

std::string callbackName(CUpti_ActivityKind kind, std::uint32_t cbid);

class PartFixture : public ::testing::Test {
protected:
    void SetUp() override;

    // Translates `records` as one buffer and writes it as one transaction.
    inject::TranslatedBatch writeBuffer(const std::vector<const CUpti_Activity*>& records);
    // Finishes the part (optional) and opens it as a session.
    core::SessionReader finishAndOpen();
    core::SessionReader open();

    TempDir dir;
    std::string path;
    std::optional<inject::PartWriter> part;
    std::optional<inject::ActivityTranslator> translator;
};

} // namespace ridgeline::testing

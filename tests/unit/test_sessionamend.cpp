// SPDX-License-Identifier: MIT
// amendSession's metadata rule: a value sets or replaces its key, an empty value removes it (the
// import's `--gpu` answers the "does not name GPU" warning that way when nothing else is left).
#include "fixtures.h"
#include "ridgeline/core/store/sessionamend.h"
#include "ridgeline/core/store/sessionreader.h"
#include "tempdir.h"

#include <gtest/gtest.h>

using namespace ridgeline;

TEST(SessionAmend, MetaValuesReplaceAndEmptyValuesRemove)
{
    ridgeline::testing::TempDir dir;
    const auto path = dir.file("s.ridge");
    ASSERT_TRUE(ridgeline::testing::writeSmallFixture(path).ok());
    core::SessionAmendment set;
    set.meta = { { "warning", "the file does not name GPU 0" }, { "import.gpu", "NVIDIA A100 SXM4 80GB" } };
    ASSERT_TRUE(core::amendSession(path, set).ok());
    auto meta = core::SessionReader::open(path).value().meta().value();
    EXPECT_EQ(meta.at("warning"), "the file does not name GPU 0");
    EXPECT_EQ(meta.at("import.gpu"), "NVIDIA A100 SXM4 80GB");

    core::SessionAmendment clear;
    clear.meta = { { "warning", "" } };
    ASSERT_TRUE(core::amendSession(path, clear).ok());
    meta = core::SessionReader::open(path).value().meta().value();
    EXPECT_FALSE(meta.contains("warning"));
    EXPECT_EQ(meta.at("import.gpu"), "NVIDIA A100 SXM4 80GB"); // other keys untouched
}

// SPDX-License-Identifier: MIT
// NVTX ranges open when a buffer was written, kept for the crash path (openranges.h): they round
// trip, bad text gives nothing rather than a crash, and a translator resumed with them closes them
// when their end markers come (as the launcher does with a crash file).
#include "activitytranslate.h"
#include "openranges.h"
#include "records.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::inject;

TEST(OpenRanges, RoundTripAndBadText)
{
    core::NvtxRange r;
    r.threadId = 77;
    r.domain = "NCCL";
    r.name = "all\"reduce\n\t";
    r.startNs = 1'700'000'000'123'456'789;
    r.color = 0xff00ff00u;
    r.category = 3;
    const OpenRanges ranges { { 12, r } };
    const auto text = encodeOpenRanges(ranges);
    const auto back = decodeOpenRanges(text);
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(back[0].first, 12u);
    EXPECT_EQ(back[0].second.name, r.name);
    EXPECT_EQ(back[0].second.domain, "NCCL");
    EXPECT_EQ(back[0].second.startNs, r.startNs);
    EXPECT_EQ(back[0].second.color, r.color);
    EXPECT_EQ(encodeOpenRanges({}), "");
    EXPECT_TRUE(decodeOpenRanges("").empty());
    EXPECT_TRUE(decodeOpenRanges("{not json").empty());
    EXPECT_TRUE(decodeOpenRanges(R"({"id":1})").empty());
    // A range with a field of the wrong type is left out, the others kept.
    const auto mixed = decodeOpenRanges(R"([{"id":1,"start":5,"name":7},{"id":2,"start":6,"name":"ok"}])");
    ASSERT_EQ(mixed.size(), 1u);
    EXPECT_EQ(mixed[0].first, 2u);
}

TEST(OpenRanges, AResumedTranslatorClosesRangesStartedBeforeTheCrash)
{
    ActivityTranslator before(1, {});
    TranslatedBatch written;
    const auto start = ridgeline::testing::markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_START, 5, 42, 1000, "step", nullptr);
    before.translate(*ridgeline::testing::asActivity(start), written);
    EXPECT_TRUE(written.nvtxRanges.empty());
    const auto kept = decodeOpenRanges(encodeOpenRanges(before.openRangeList()));
    ASSERT_EQ(kept.size(), 1u);

    ActivityTranslator after(9, {}); // the crash file's part
    for (const auto& [id, range] : kept)
        after.resumeOpenRange(id, range);
    TranslatedBatch recovered;
    const auto end = ridgeline::testing::markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_END, 5, 42, 2500, nullptr, nullptr);
    after.translate(*ridgeline::testing::asActivity(end), recovered);
    ASSERT_EQ(recovered.nvtxRanges.size(), 1u);
    EXPECT_EQ(recovered.nvtxRanges[0].name, "step");
    EXPECT_EQ(recovered.nvtxRanges[0].startNs, 1000);
    EXPECT_EQ(recovered.nvtxRanges[0].endNs, 2500);
    EXPECT_EQ(recovered.nvtxRanges[0].processId, 9);
}

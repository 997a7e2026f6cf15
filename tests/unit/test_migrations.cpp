// SPDX-License-Identifier: MIT
// Every released schema version must open in today's code. tests/data/sessions/v1-small.ridge
// was written by the v1 writer (make_fixture small) and is never regenerated: when the schema
// moves on, this test proves the migration from v1 still works.
#include "ridgeline/core/kernelsummary.h"
#include "ridgeline/core/sessionformat.h"
#include "ridgeline/core/sessionreader.h"
#include "testutil.h"

#include <gtest/gtest.h>

using namespace ridgeline::core;
using ridgeline::testing::testDataPath;

TEST(Migrations, V1SessionOpensInThisVersion)
{
    const auto path = testDataPath("sessions/v1-small.ridge");
    const auto before = ridgeline::testing::readBytes(path);
    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    auto& r = reader.value();
    EXPECT_EQ(r.fileSchemaVersion(), 1);

    auto counts = r.counts();
    ASSERT_TRUE(counts.ok());
    EXPECT_EQ(counts.value().devices, 2);
    EXPECT_EQ(counts.value().kernels, 8);
    EXPECT_EQ(counts.value().kernelNames, 4);
    EXPECT_EQ(counts.value().memcpys, 1);
    EXPECT_EQ(counts.value().memsets, 1);
    EXPECT_EQ(counts.value().commOps, 1);
    EXPECT_EQ(counts.value().metrics, 3);
    EXPECT_EQ(counts.value().verdicts, 1);

    auto rows = summarizeKernels(r);
    ASSERT_TRUE(rows.ok());
    ASSERT_EQ(rows.value().size(), 5u);
    EXPECT_EQ(rows.value()[0].name, "ampere_sgemm_128x64_nn");
    EXPECT_EQ(rows.value()[0].totalNs, 24'000);
    // v2 added comm_ops.seq: unrecorded (-1) in a migrated v1 file.
    auto comms = r.commOps();
    ASSERT_TRUE(comms.ok());
    ASSERT_EQ(comms.value().size(), 1u);
    EXPECT_EQ(comms.value()[0].seq, -1);
    // v3 added kernels.graph_node_id and graph_range_kernels: 0 (none) in a migrated file.
    auto kernels = r.kernels();
    ASSERT_TRUE(kernels.ok());
    ASSERT_EQ(kernels.value().size(), 8u);
    for (const auto& k : kernels.value()) {
        EXPECT_EQ(k.graphNodeId, 0);
        EXPECT_EQ(k.graphRangeKernels, 0);
    }
    // Opening never writes to the file, not even to migrate it.
    EXPECT_EQ(ridgeline::testing::readBytes(path), before);
}

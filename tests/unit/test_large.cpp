// SPDX-License-Identifier: MIT
// Large transactions: hundreds of thousands of rows in one call, then indexed window queries
// that must agree with a brute-force scan.
#include "fixtures.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "testutil.h"

#include <gtest/gtest.h>

using namespace ridgeline::core;

TEST(Large, OneTransactionOfManyKernels)
{
    ridgeline::testing::TempDir dir;
    const auto path = dir.file("large.ridge");
    ridgeline::testing::SyntheticSpec spec;
    spec.kernels = 250'000;
    spec.devices = 2;
    spec.batchSize = spec.kernels; // everything in a single transaction
    const auto written = ridgeline::testing::writeSyntheticSession(path, spec);
    ASSERT_TRUE(written.ok()) << written.error().message;

    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    auto& r = reader.value();
    ASSERT_EQ(r.counts().value().kernels, spec.kernels);

    auto all = r.kernels();
    ASSERT_TRUE(all.ok());
    const std::int64_t from = 50'000'000, to = 51'000'000;
    for (std::int64_t device : { 0, 1 }) {
        std::size_t expected = 0;
        for (const auto& k : all.value()) {
            if (k.deviceId == device && k.startNs < to && k.endNs > from)
                ++expected;
        }
        auto window = r.kernels({ device, std::nullopt, from, to });
        ASSERT_TRUE(window.ok());
        EXPECT_GT(expected, 0u);
        EXPECT_EQ(window.value().size(), expected) << "device " << device;
        for (std::size_t i = 1; i < window.value().size(); ++i)
            EXPECT_LE(window.value()[i - 1].startNs, window.value()[i].startNs);
    }
}

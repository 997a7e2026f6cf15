// SPDX-License-Identifier: MIT
// Readers open and query a live session while one writer keeps appending (WAL).
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "testutil.h"

#include <atomic>
#include <gtest/gtest.h>
#include <thread>
#include <vector>

using namespace ridgeline::core;

TEST(Concurrency, ReadersSeeConsistentSnapshotsWhileOneWriterWrites)
{
    ridgeline::testing::TempDir dir;
    const auto path = dir.file("live.ridge");
    WriterOptions live;
    live.atomic = false;
    live.indexesUpFront = true;
    auto created = SessionWriter::create(path, live);
    ASSERT_TRUE(created.ok()) << created.error().message;
    auto& writer = created.value();
    const auto name = writer.internKernelName("_Z4stepv");
    ASSERT_TRUE(name.ok());

    constexpr int kBatches = 60;
    constexpr int kPerBatch = 500;
    std::atomic<bool> done { false };
    std::atomic<int> readerErrors { 0 };
    std::atomic<int> snapshots { 0 };

    auto readerLoop = [&] {
        std::int64_t lastSeen = 0;
        while (!done.load()) {
            auto reader = SessionReader::open(path);
            if (reader.hasError()) {
                ADD_FAILURE() << reader.error().message;
                ++readerErrors;
                return;
            }
            auto counts = reader.value().counts();
            auto kernels = reader.value().kernels({ 0, std::nullopt, 0, INT64_MAX });
            if (counts.hasError() || kernels.hasError()) {
                ++readerErrors;
                return;
            }
            // Whole batches only (one transaction each), never fewer rows than before.
            EXPECT_EQ(counts.value().kernels % kPerBatch, 0);
            EXPECT_GE(counts.value().kernels, lastSeen);
            lastSeen = counts.value().kernels;
            ++snapshots;
        }
    };
    std::vector<std::thread> readers;
    for (int i = 0; i < 3; ++i)
        readers.emplace_back(readerLoop);

    std::int64_t clock = 0;
    for (int b = 0; b < kBatches; ++b) {
        std::vector<Kernel> batch(kPerBatch);
        for (auto& k : batch) {
            k.processId = 1;
            k.nameId = name.value();
            k.startNs = clock;
            k.endNs = clock + 100;
            clock += 150;
        }
        auto added = writer.addKernels(batch);
        ASSERT_TRUE(added.ok()) << added.error().message;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    const auto finished = writer.finish(SessionStatus::Complete);
    done = true;
    for (auto& t : readers)
        t.join();
    ASSERT_TRUE(finished.ok()) << finished.error().message;
    EXPECT_EQ(readerErrors.load(), 0);
    EXPECT_GT(snapshots.load(), 0);

    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok());
    EXPECT_EQ(reader.value().counts().value().kernels, kBatches * kPerBatch);
    EXPECT_EQ(reader.value().meta().value()[metakey::Status], "complete");
}

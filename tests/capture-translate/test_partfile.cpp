// SPDX-License-Identifier: MIT
// The part file as a whole: a mixed buffer in one transaction, records Ridgeline does not know,
// counters meeting their kernels, the meta keys of the contract, and a part whose process died.
#include "partfixture.h"
#include "records.h"

#include <cstring>
#include <cupti_runtime_cbid.h>
#include <map>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace ridgeline::testing {

using PartFile = PartFixture;

namespace {

// The session's meta values under the keys of `expected` ("<missing>" where absent) are `expected`.
void expectMeta(core::SessionReader& reader, const std::map<std::string, std::string>& expected)
{
    auto meta = reader.meta();
    ASSERT_TRUE(meta.ok());
    std::map<std::string, std::string> actual;
    for (const auto& [key, value] : expected) {
        auto it = meta.value().find(key);
        actual[key] = it == meta.value().end() ? std::string("<missing>") : it->second;
    }
    EXPECT_EQ(actual, expected);
}

} // namespace

TEST_F(PartFile, MixedBufferRoundTrips)
{
    auto device = deviceRecord(0, "NVIDIA H100 80GB HBM3");
    auto api = apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 1, 555, 10, 20);
    auto kernel1 = kernelRecord(1, "_Z5triadPfPKfS1_f", 30, 90);
    auto copy = memcpyRecord(2, CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, 4096, 100, 130);
    auto kernel2 = kernelRecord(3, "_Z5triadPfPKfS1_f", 140, 200);
    auto set = memsetRecord(4, 64, 210, 215);
    auto start = markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_START, 1, 555, 5, "step", "app");
    auto end = markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_END, 1, 555, 250, nullptr, nullptr);
    auto sync = syncRecord(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, 5, 220, 240);
    auto batch = writeBuffer({ asActivity(device), asActivity(start), asActivity(api), asActivity(kernel1),
        asActivity(copy), asActivity(kernel2), asActivity(set), asActivity(sync), asActivity(end) });
    EXPECT_EQ(batch.records, 9u);
    EXPECT_EQ(batch.unknownRecords, 0u);

    auto reader = finishAndOpen();
    auto counts = reader.counts();
    ASSERT_TRUE(counts.ok());
    EXPECT_EQ(counts.value().devices, 1);
    EXPECT_EQ(counts.value().processes, 1);
    EXPECT_EQ(counts.value().kernels, 2);
    EXPECT_EQ(counts.value().kernelNames, 1); // one name for both launches
    EXPECT_EQ(counts.value().memcpys, 1);
    EXPECT_EQ(counts.value().memsets, 1);
    EXPECT_EQ(counts.value().apiCalls, 2); // the runtime call and the synchronisation
    EXPECT_EQ(counts.value().nvtxRanges, 1);
    auto span = reader.gpuTimeSpan();
    ASSERT_TRUE(span.ok());
    EXPECT_EQ(span.value().startNs, 30);
    EXPECT_EQ(span.value().endNs, 215);
    auto processes = reader.processes();
    ASSERT_TRUE(processes.ok());
    ASSERT_EQ(processes.value().size(), 1u);
    EXPECT_EQ(processes.value()[0].pid, 4242);
    EXPECT_EQ(processes.value()[0].host, "node7");
    EXPECT_EQ(processes.value()[0].command, "./train --epochs 1");
    expectMeta(reader,
        { { "status", "complete" }, { "capture.pid", "4242" }, { "capture.host", "node7" },
            { "capture.session_id", "s-1" }, { "capture.end_ns", "99000" } });
}

TEST_F(PartFile, UnknownRecordKindIsCountedAndSkipped)
{
    // A record kind Ridgeline does not translate (CUDA events), between two it does.
    CUpti_ActivityCudaEvent2 event;
    std::memset(&event, 0, sizeof(event));
    event.kind = CUPTI_ACTIVITY_KIND_CUDA_EVENT;
    event.correlationId = 8;
    auto before = kernelRecord(7, "_Z4stepv", 10, 20);
    auto after = memsetRecord(9, 16, 30, 31);
    auto batch = writeBuffer({ asActivity(before), asActivity(event), asActivity(after) });
    EXPECT_EQ(batch.records, 3u);
    EXPECT_EQ(batch.unknownRecords, 1u);
    auto reader = finishAndOpen();
    auto counts = reader.counts();
    ASSERT_TRUE(counts.ok());
    EXPECT_EQ(counts.value().kernels, 1);
    EXPECT_EQ(counts.value().memsets, 1);
}

TEST_F(PartFile, CountersFindTheirKernelInEitherOrder)
{
    // Counters first (the usual order: they are read when the launch returns).
    part->expectCounters(50);
    ASSERT_TRUE(
        part->addCounters(50, { { 0, "dram__bytes.sum", 4096, {} }, { 0, "gpu__time_duration.sum", 1500, {} } }).ok());
    // Kernel first (its buffer was flushed before the launch returned).
    part->expectCounters(51);
    auto first = kernelRecord(50, "_Z1av", 10, 20);
    auto second = kernelRecord(51, "_Z1bv", 30, 40);
    writeBuffer({ asActivity(first), asActivity(second) });
    ASSERT_TRUE(part->addCounters(51, { { 0, "dram__bytes.sum", 8192, {} } }).ok());
    // Counters whose kernel never arrives stay orphans (reported at exit).
    ASSERT_TRUE(part->addCounters(52, { { 0, "dram__bytes.sum", 1, {} } }).ok());
    EXPECT_EQ(part->orphanCounters(), 1u);

    auto reader = finishAndOpen();
    auto kernels = reader.kernels();
    ASSERT_TRUE(kernels.ok());
    ASSERT_EQ(kernels.value().size(), 2u);
    std::map<std::int64_t, std::int64_t> idByCorrelation;
    for (const auto& kernel : kernels.value())
        idByCorrelation[kernel.correlationId] = kernel.id;
    auto a = reader.metrics(idByCorrelation[50]);
    ASSERT_TRUE(a.ok());
    std::map<std::string, double> aValues;
    for (const auto& metric : a.value())
        aValues[metric.name] = metric.value;
    EXPECT_EQ(aValues.size(), 2u);
    EXPECT_DOUBLE_EQ(aValues["dram__bytes.sum"], 4096);
    EXPECT_DOUBLE_EQ(aValues["gpu__time_duration.sum"], 1500);
    auto b = reader.metrics(idByCorrelation[51]);
    ASSERT_TRUE(b.ok());
    ASSERT_EQ(b.value().size(), 1u);
    EXPECT_DOUBLE_EQ(b.value()[0].value, 8192);
}

TEST_F(PartFile, ContractMetaIsAlwaysThere)
{
    {
        auto reader = open(); // a live part, read while it is being written
        expectMeta(reader, { { "capture.dropped_records", "0" }, { "status", "partial" } });
    }
    ASSERT_TRUE(part->addDropped(5).ok());
    ASSERT_TRUE(part->addDropped(7).ok());
    ASSERT_TRUE(part->addError("counters are restricted.").ok());
    ASSERT_TRUE(part->addError("counters are restricted.").ok()); // repeated: kept once
    ASSERT_TRUE(part->addError("another profiler is attached.").ok());
    ASSERT_TRUE(part->addWarning("NVTX ranges were open.").ok());
    auto reader = finishAndOpen();
    expectMeta(reader,
        { { "capture.dropped_records", "12" },
            { "capture.error", "counters are restricted.\nanother profiler is attached." },
            { "capture.warning", "NVTX ranges were open." }, { "source", "capture" } });
}

TEST(PartFileKilled, UnfinishedPartIsReadableAsPartial)
{
    TempDir dir;
    const std::string path = dir.file("node-1.part.ridge");
    // The child writes two buffers and is killed before it can finish: like a target that crashed.
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        inject::PartIdentity identity;
        identity.pid = getpid();
        identity.host = "node";
        auto part = inject::PartWriter::create(path, identity);
        if (part.hasError())
            _exit(2);
        inject::ActivityTranslator translator(part.value().processId(), callbackName);
        for (std::uint32_t i = 0; i < 2; ++i) {
            auto k = kernelRecord(i + 1, "_Z4stepv", 100 * i, 100 * i + 50);
            inject::TranslatedBatch batch;
            translator.translate(*asActivity(k), batch);
            if (part.value().write(batch).hasError())
                _exit(3);
        }
        raise(SIGKILL);
        _exit(4);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "child exit " << WEXITSTATUS(status);
    ASSERT_EQ(WTERMSIG(status), SIGKILL);

    auto reader = core::SessionReader::open(path);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    auto meta = reader.value().meta();
    ASSERT_TRUE(meta.ok());
    EXPECT_EQ(meta.value()["status"], "partial");
    auto kernels = reader.value().kernels();
    ASSERT_TRUE(kernels.ok());
    EXPECT_EQ(kernels.value().size(), 2u); // both committed buffers survive
}

TEST(PartFileCreate, RefusesAnExistingPartAndAnUnwritableDirectory)
{
    TempDir dir;
    const std::string path = dir.file("p.part.ridge");
    {
        auto first = inject::PartWriter::create(path, {});
        ASSERT_TRUE(first.ok());
        ASSERT_TRUE(first.value().finish(1).ok());
    }
    auto second = inject::PartWriter::create(path, {});
    ASSERT_TRUE(second.hasError());
    EXPECT_NE(second.error().message.find("already exists"), std::string::npos);
    auto nowhere = inject::PartWriter::create(dir.file("missing-dir/p.part.ridge"), {});
    ASSERT_TRUE(nowhere.hasError());
    EXPECT_FALSE(nowhere.error().message.empty());
}

} // namespace ridgeline::testing

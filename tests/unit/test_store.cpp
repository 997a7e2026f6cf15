// SPDX-License-Identifier: MIT
// Round trip of every table, interning, batches, time windows and the writer's file handling.
#include "fixtures.h"
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "testutil.h"

#include <filesystem>
#include <gtest/gtest.h>

using namespace ridgeline::core;
using ridgeline::testing::TempDir;

namespace {

SessionWriter newWriter(const std::string& path, WriterOptions options = {})
{
    auto writer = SessionWriter::create(path, options);
    EXPECT_TRUE(writer.ok()) << (writer.ok() ? "" : writer.error().message);
    return std::move(writer).value();
}

SessionReader openReader(const std::string& path)
{
    auto reader = SessionReader::open(path);
    EXPECT_TRUE(reader.ok()) << (reader.ok() ? "" : reader.error().message);
    return std::move(reader).value();
}

template <typename T> T valueOf(Result<T> result)
{
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message);
    return std::move(result).value();
}

void expectOk(const Status& status)
{
    EXPECT_TRUE(status.ok()) << (status.ok() ? "" : status.error().message);
}

// A kernel of process 1.
Kernel makeKernel(std::int64_t nameId, std::int64_t device, std::int64_t stream, std::int64_t start, std::int64_t end)
{
    return ridgeline::testing::kernelRecord(1, device, stream, nameId, start, end);
}

} // namespace

TEST(Store, EveryTableRoundTrips)
{
    TempDir dir;
    const auto path = dir.file("all.ridge");
    auto w = newWriter(path);

    Device device;
    device.host = "node17";
    device.ordinal = 3;
    device.uuid = "GPU-1234";
    device.name = "NVIDIA A100-SXM4-80GB";
    device.ccMajor = 8;
    device.smCount = 108;
    device.coreClockKhz = 1410000;
    device.memoryClockKhz = 1593000;
    device.memoryBytes = 85'000'000'000;
    device.memoryBusWidthBits = 5120;
    device.l2CacheBytes = 41'943'040;
    device.maxThreadsPerSm = 2048;
    device.sharedMemoryPerSmBytes = 167'936;
    device.nvlinkBandwidthBytesPerS = 300e9;
    device.pcieBandwidthBytesPerS = 32e9;
    device.id = valueOf(w.addDevice(device));

    Process process;
    process.pid = 99;
    process.host = "node17";
    process.rank = 5;
    process.worldSize = 8;
    process.command = "python train.py --lr 0.1";
    process.startNs = -5;
    process.endNs = 1'000'000'000'000;
    process.exitStatus = 139;
    process.id = valueOf(w.addProcess(process));
    Process noExit;
    noExit.pid = 100;
    noExit.id = valueOf(w.addProcess(noExit));

    const Thread threads[] = { { 0, process.id, 99, "python" }, { 0, process.id, 101, "pt_autograd_0" } };
    expectOk(w.addThreads(threads));

    const Ceiling ceilings[] = {
        { device.id, "DRAM", 2.039e12, "B/s", CeilingSource::Datasheet, "A100 datasheet" },
        { device.id, "DRAM", 1.9e12, "B/s", CeilingSource::Measured, "stream triad" },
        { device.id, "FP64", 9.7e12, "FLOP/s", CeilingSource::Counters, "peak_sustained x clock" },
    };
    expectOk(w.addCeilings(ceilings));

    const auto nameId = valueOf(w.internKernelName("_Z6kernelPfi"));
    Kernel kernel = makeKernel(nameId, device.id, 14, 100, 250);
    kernel.processId = process.id;
    kernel.contextId = 2;
    kernel.correlationId = 77;
    kernel.grid = { 80, 2, 3 };
    kernel.block = { 128, 4, 1 };
    kernel.registersPerThread = 40;
    kernel.staticSharedBytes = 1024;
    kernel.dynamicSharedBytes = 49152;
    kernel.graphId = 12;
    kernel.id = valueOf(w.addKernels(std::span(&kernel, 1)));

    const MetricValue metrics[] = { { kernel.id, "dram__bytes.sum", 1.5e9, "byte" },
        { kernel.id, "sm__cycles_elapsed.avg.per_second", 1.41e9, "cycle/second" } };
    expectOk(w.addMetrics(metrics));

    MemOp copy;
    copy.processId = process.id;
    copy.deviceId = device.id;
    copy.streamId = 14;
    copy.correlationId = 78;
    copy.kind = MemOpKind::MemcpyPtoP;
    copy.bytes = 1 << 20;
    copy.startNs = 300;
    copy.endNs = 400;
    copy.srcDeviceId = device.id;
    copy.dstDeviceId = 7;
    copy.srcMemory = "device";
    copy.dstMemory = "device";
    copy.id = valueOf(w.addMemOps(std::span(&copy, 1)));

    ApiCall call { 0, process.id, 101, "runtime", "cudaLaunchKernel", 77, 90, 95, 0 };
    call.id = valueOf(w.addApiCalls(std::span(&call, 1)));
    NvtxRange range { 0, process.id, 99, "PyTorch", "forward", 50, 500, 0xFF336699u, 3 };
    range.id = valueOf(w.addNvtxRanges(std::span(&range, 1)));

    CommOp op;
    op.kernelId = kernel.id;
    op.processId = process.id;
    op.deviceId = device.id;
    op.collective = "AllGather";
    op.bytes = 1 << 24;
    op.dataType = "bf16";
    op.groupSize = 8;
    op.root = -1;
    op.algorithm = "Ring";
    op.protocol = "Simple";
    op.processGroup = "tp";
    op.startNs = 100;
    op.endNs = 250;
    op.id = valueOf(w.addCommOps(std::span(&op, 1)));

    const Verdict verdict { kernel.id, VerdictClass::MemoryBound, "DRAM", 0.87,
        "memory-bound (DRAM): 2.91 TB/s = 87 % of 3.35 TB/s" };
    expectOk(w.setVerdicts(std::span(&verdict, 1)));
    expectOk(w.setMeta(metakey::Source, "test"));
    expectOk(w.finish(SessionStatus::Complete));

    auto r = openReader(path);
    EXPECT_EQ(r.fileSchemaVersion(), kSchemaVersion);
    EXPECT_EQ(valueOf(r.devices()), std::vector<Device> { device });
    auto processes = valueOf(r.processes());
    ASSERT_EQ(processes.size(), 2u);
    EXPECT_EQ(processes[0], process);
    EXPECT_FALSE(processes[1].exitStatus.has_value());
    auto storedThreads = valueOf(r.threads());
    ASSERT_EQ(storedThreads.size(), 2u);
    EXPECT_EQ(storedThreads[1].name, "pt_autograd_0");
    EXPECT_EQ(valueOf(r.ceilings(device.id)).size(), 3u);
    EXPECT_EQ(valueOf(r.ceilings()).size(), 3u);
    EXPECT_TRUE(valueOf(r.ceilings(device.id + 1)).empty());
    const auto storedCeilings = valueOf(r.ceilings());
    // Ordered by device, resource, then source name: datasheet < measured.
    ASSERT_EQ(storedCeilings.size(), 3u);
    EXPECT_EQ(storedCeilings[0], ceilings[0]);
    EXPECT_EQ(storedCeilings[1], ceilings[1]);
    EXPECT_EQ(storedCeilings[2], ceilings[2]);
    auto names = valueOf(r.kernelNames());
    ASSERT_EQ(names.size(), 1u);
    EXPECT_EQ(names[0].raw, "_Z6kernelPfi");
    EXPECT_EQ(names[0].demangled, "kernel(float*, int)");
    EXPECT_EQ(valueOf(r.kernels()), std::vector<Kernel> { kernel });
    auto storedMetrics = valueOf(r.metrics(kernel.id));
    ASSERT_EQ(storedMetrics.size(), 2u);
    EXPECT_EQ(storedMetrics[0], metrics[0]);
    EXPECT_EQ(storedMetrics[1], metrics[1]);
    EXPECT_EQ(valueOf(r.memOps()), std::vector<MemOp> { copy });
    EXPECT_EQ(valueOf(r.apiCalls()), std::vector<ApiCall> { call });
    EXPECT_EQ(valueOf(r.nvtxRanges()), std::vector<NvtxRange> { range });
    EXPECT_EQ(valueOf(r.commOps()), std::vector<CommOp> { op });
    EXPECT_EQ(valueOf(r.verdicts()), std::vector<Verdict> { verdict });
    auto meta = valueOf(r.meta());
    EXPECT_EQ(meta[metakey::Status], "complete");
    EXPECT_EQ(meta[metakey::Source], "test");
    EXPECT_EQ(meta[metakey::Format], "ridgeline-session");
    EXPECT_FALSE(meta[metakey::CreatedAt].empty());
}

TEST(Store, NamesAreInternedOnce)
{
    TempDir dir;
    auto w = newWriter(dir.file("names.ridge"));
    const auto a = valueOf(w.internKernelName("_Z3fooi"));
    const auto b = valueOf(w.internKernelName("_Z3bari"));
    EXPECT_NE(a, b);
    EXPECT_EQ(valueOf(w.internKernelName("_Z3fooi")), a);
    const auto custom = valueOf(w.internKernelName("not_mangled", "Pretty Name"));
    ApiCall calls[]
        = { { 0, 1, 1, "runtime", "cudaMalloc", 1, 0, 1, 0 }, { 0, 1, 1, "runtime", "cudaMalloc", 2, 2, 3, 0 } };
    ASSERT_TRUE(w.addApiCalls(calls).ok());
    expectOk(w.finish(SessionStatus::Complete));

    auto r = openReader(dir.file("names.ridge"));
    auto names = valueOf(r.kernelNames());
    ASSERT_EQ(names.size(), 3u);
    EXPECT_EQ(names[0].demangled, "foo(int)");
    EXPECT_EQ(names[2].id, custom);
    EXPECT_EQ(names[2].demangled, "Pretty Name");
    auto storedCalls = valueOf(r.apiCalls());
    ASSERT_EQ(storedCalls.size(), 2u);
    EXPECT_EQ(storedCalls[1].name, "cudaMalloc");
    EXPECT_EQ(valueOf(r.counts()).apiCalls, 2);
}

TEST(Store, TimeWindowsFindEveryOverlappingKernel)
{
    TempDir dir;
    const auto path = dir.file("window.ridge");
    auto w = newWriter(path);
    const auto name = valueOf(w.internKernelName("k"));
    const Kernel kernels[] = {
        makeKernel(name, 0, 1, 0, 10'000), // long: starts well before the window, ends inside
        makeKernel(name, 0, 1, 10'000, 10'100), makeKernel(name, 0, 2, 10'050, 10'060),
        makeKernel(name, 0, 1, 20'000, 20'100), // after the window
        makeKernel(name, 1, 1, 9'000, 9'500), // other device
        makeKernel(name, 0, 2, 4'990, 5'000), // ends exactly at the window start: not overlapping
    };
    ASSERT_TRUE(w.addKernels(kernels).ok());
    expectOk(w.finish(SessionStatus::Complete));

    auto r = openReader(path);
    auto window = valueOf(r.kernels({ 0, std::nullopt, 5'000, 15'000 }));
    ASSERT_EQ(window.size(), 3u);
    EXPECT_EQ(window[0].startNs, 0);
    EXPECT_EQ(window[1].startNs, 10'000);
    EXPECT_EQ(window[2].startNs, 10'050);
    EXPECT_EQ(valueOf(r.kernels({ 0, 2, 5'000, 15'000 })).size(), 1u);
    EXPECT_EQ(valueOf(r.kernels({ 1, std::nullopt, 0, 100'000 })).size(), 1u);
    EXPECT_EQ(valueOf(r.kernels({ std::nullopt, std::nullopt, 9'200, 9'300 })).size(), 2u);
    EXPECT_EQ(valueOf(r.kernels()).size(), 6u);

    int visited = 0;
    expectOk(r.forEachKernel({}, [&](const Kernel&) { return ++visited < 2; }));
    EXPECT_EQ(visited, 2);

    const auto span = valueOf(r.gpuTimeSpan());
    EXPECT_FALSE(span.empty);
    EXPECT_EQ(span.startNs, 0);
    EXPECT_EQ(span.endNs, 20'100);
    EXPECT_EQ(valueOf(r.meta())["max_duration_ns.kernels"], "10000");

    // A session without the recorded longest duration (partial, or from elsewhere) scans instead.
    ridgeline::testing::execSql(path, "DELETE FROM meta WHERE key LIKE 'max_duration_ns.%';");
    auto scanned = openReader(path);
    EXPECT_EQ(valueOf(scanned.kernels({ 0, std::nullopt, 5'000, 15'000 })).size(), 3u);
}

TEST(Store, BatchesGroupCallsInOneTransaction)
{
    TempDir dir;
    auto w = newWriter(dir.file("batch.ridge"));
    expectOk(w.beginBatch());
    const auto name = valueOf(w.internKernelName("k"));
    const Kernel k = makeKernel(name, 0, 1, 0, 1);
    ASSERT_TRUE(w.addKernels(std::span(&k, 1)).ok());
    EXPECT_TRUE(w.finish(SessionStatus::Complete).hasError()); // not inside a batch
    expectOk(w.commitBatch());
    EXPECT_TRUE(w.commitBatch().hasError());
    expectOk(w.finish(SessionStatus::Complete));
    EXPECT_TRUE(w.finish(SessionStatus::Complete).hasError());
}

TEST(Store, VerdictsAreReplacedNotDuplicated)
{
    TempDir dir;
    auto w = newWriter(dir.file("verdicts.ridge"));
    const Verdict first { 1, VerdictClass::Unknown, "", std::nullopt, "no counters" };
    const Verdict second { 1, VerdictClass::ComputeBound, "FP32", 0.9, "compute-bound (FP32): 90 % of peak" };
    expectOk(w.setVerdicts(std::span(&first, 1)));
    expectOk(w.setVerdicts(std::span(&second, 1)));
    expectOk(w.finish(SessionStatus::Complete));
    auto r = openReader(dir.file("verdicts.ridge"));
    EXPECT_EQ(valueOf(r.verdicts()), std::vector<Verdict> { second });
}

TEST(Store, AtomicWriterPublishesOnlyFinishedFiles)
{
    TempDir dir;
    const auto path = dir.file("atomic.ridge");
    {
        auto w = newWriter(path);
        EXPECT_FALSE(std::filesystem::exists(path)); // still under its temporary name
    } // dropped without finish(): nothing is left behind
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));

    auto w = newWriter(path);
    expectOk(w.finish(SessionStatus::Complete));
    EXPECT_TRUE(std::filesystem::exists(path));
    EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);
}

TEST(Store, ExistingFilesAreKeptUnlessReplacing)
{
    TempDir dir;
    const auto path = dir.file("exists.ridge");
    ASSERT_TRUE(ridgeline::testing::writeSmallFixture(path).ok());
    auto refused = SessionWriter::create(path);
    ASSERT_TRUE(refused.hasError());
    EXPECT_EQ(refused.error().code, ErrorCode::InvalidArgument);
    EXPECT_NE(refused.error().message.find("already exists"), std::string::npos);

    WriterOptions replace;
    replace.replaceExisting = true;
    auto w = newWriter(path, replace);
    // Until finish() the old session is intact.
    EXPECT_EQ(valueOf(openReader(path).counts()).kernels, 8);
    expectOk(w.finish(SessionStatus::Complete));
    EXPECT_EQ(valueOf(openReader(path).counts()).kernels, 0);
}

TEST(Store, FullDiskIsAnErrorAndLosesNoExistingSession)
{
    TempDir dir;
    const auto path = dir.file("full.ridge");
    ASSERT_TRUE(ridgeline::testing::writeSmallFixture(path).ok());
    WriterOptions options;
    options.replaceExisting = true;
    options.maxPageCount = 40; // ~160 KiB: the disk "fills" during the bulk insert
    auto w = newWriter(path, options);
    ridgeline::testing::SyntheticSpec spec;
    spec.kernels = 20'000;
    const auto status = ridgeline::testing::writeSyntheticKernels(w, spec);
    ASSERT_TRUE(status.hasError());
    EXPECT_EQ(status.error().code, ErrorCode::Io);
    EXPECT_NE(status.error().message.find("full"), std::string::npos) << status.error().message;
    // The session that was there before is untouched.
    EXPECT_EQ(valueOf(openReader(path).counts()).kernels, 8);
}

TEST(Store, LiveWriterLeavesAReadablePartialSession)
{
    TempDir dir;
    const auto path = dir.file("live.ridge");
    {
        WriterOptions live;
        live.atomic = false;
        auto w = newWriter(path, live);
        const auto name = valueOf(w.internKernelName("k"));
        const Kernel k = makeKernel(name, 0, 1, 0, 1);
        ASSERT_TRUE(w.addKernels(std::span(&k, 1)).ok());
        // The process "dies" here: no finish().
    }
    auto r = openReader(path);
    EXPECT_EQ(valueOf(r.meta())[metakey::Status], "partial");
    EXPECT_EQ(valueOf(r.counts()).kernels, 1);
}

TEST(Store, EmptySessionHasNoSpan)
{
    TempDir dir;
    auto w = newWriter(dir.file("empty.ridge"));
    expectOk(w.finish(SessionStatus::Complete));
    auto r = openReader(dir.file("empty.ridge"));
    EXPECT_TRUE(valueOf(r.gpuTimeSpan()).empty);
    EXPECT_TRUE(valueOf(r.kernels({ 0, std::nullopt, 0, 10 })).empty());
}

TEST(Store, GraphNodeAndGraphRangeKernelsRoundTripAndCanBeMarkedLater)
{
    TempDir dir;
    const auto path = dir.file("graph.ridge");
    {
        auto w = newWriter(path);
        Device d;
        d.name = "NVIDIA H100 80GB HBM3";
        const auto device = valueOf(w.addDevice(d));
        const auto name = valueOf(w.internKernelName("_Z1kv"));
        std::vector<Kernel> kernels(3);
        for (std::size_t i = 0; i < kernels.size(); ++i) {
            kernels[i].deviceId = device;
            kernels[i].nameId = name;
            kernels[i].startNs = 10 * static_cast<std::int64_t>(i);
            kernels[i].endNs = kernels[i].startNs + 5;
            kernels[i].graphId = 4;
            kernels[i].graphNodeId = (std::int64_t { 4 } << 32) + static_cast<std::int64_t>(i) + 1;
        }
        kernels[0].graphRangeKernels = 2;
        const auto first = valueOf(w.addKernels(kernels));
        // Kernels already written are marked once their graph launch's range is known.
        const std::vector<std::int64_t> later { first + 1, first + 2 };
        expectOk(w.setGraphRangeKernels(later, 3));
        expectOk(w.finish(SessionStatus::Complete));
    }
    auto r = openReader(path);
    const auto kernels = valueOf(r.kernels());
    ASSERT_EQ(kernels.size(), 3u);
    EXPECT_EQ(kernels[0].graphRangeKernels, 2);
    EXPECT_EQ(kernels[1].graphRangeKernels, 3);
    EXPECT_EQ(kernels[2].graphRangeKernels, 3);
    EXPECT_EQ(kernels[2].graphNodeId, (std::int64_t { 4 } << 32) + 3);
    EXPECT_EQ(kernels[0].graphId, 4);
}

// SPDX-License-Identifier: MIT
#include "fixtures.h"

#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionwriter.h"

#include <fmt/format.h>
#include <vector>

namespace ridgeline::testing {

using namespace ridgeline::core;

namespace {

constexpr const char* kFixtureOrigin = "synthetic test fixture written by tests/support/fixtures.cpp; not measured";

Device fixtureDevice(std::int64_t id, int ordinal)
{
    Device d;
    d.id = id;
    d.host = "fixture-host";
    d.ordinal = ordinal;
    d.uuid = fmt::format("GPU-00000000-0000-0000-0000-00000000000{}", ordinal);
    d.name = "NVIDIA H100 80GB HBM3";
    d.ccMajor = 9;
    d.ccMinor = 0;
    d.smCount = 132;
    d.coreClockKhz = 1980000;
    d.memoryClockKhz = 2619000;
    d.memoryBytes = 85'899'345'920;
    d.memoryBusWidthBits = 5120;
    d.l2CacheBytes = 52'428'800;
    d.maxThreadsPerSm = 2048;
    d.sharedMemoryPerSmBytes = 233'472;
    d.nvlinkBandwidthBytesPerS = 450e9;
    d.pcieBandwidthBytesPerS = 64e9;
    return d;
}

Kernel kernel(std::int64_t device, std::int64_t stream, std::int64_t name, std::int64_t start, std::int64_t duration,
    std::int64_t correlation)
{
    Kernel k;
    k.processId = 1;
    k.deviceId = device;
    k.contextId = 1;
    k.streamId = stream;
    k.correlationId = correlation;
    k.nameId = name;
    k.startNs = start;
    k.endNs = start + duration;
    k.grid = { 1024, 1, 1 };
    k.block = { 256, 1, 1 };
    k.registersPerThread = 32;
    k.staticSharedBytes = 0;
    k.dynamicSharedBytes = 4096;
    return k;
}

// A new session at `path` (replacing a file there), labelled as a fixture.
Result<SessionWriter> createFixture(const std::string& path)
{
    WriterOptions options;
    options.replaceExisting = true;
    auto created = SessionWriter::create(path, options);
    if (created.hasError())
        return created.error();
    RIDGELINE_TRY(created.value().setMeta(metakey::Source, "fixture"));
    RIDGELINE_TRY(created.value().setMeta(metakey::Origin, kFixtureOrigin));
    return created;
}

} // namespace

Status writeSmallFixture(const std::string& path)
{
    auto created = createFixture(path);
    if (created.hasError())
        return created.error();
    SessionWriter& w = created.value();
    RIDGELINE_TRY(w.setMeta(metakey::CaptureCommand, "./vector_add --n 1048576"));

    RIDGELINE_TRY(w.addDevice(fixtureDevice(0, 0)));
    RIDGELINE_TRY(w.addDevice(fixtureDevice(1, 1)));
    Process p;
    p.id = 1;
    p.pid = 4242;
    p.host = "fixture-host";
    p.rank = 0;
    p.worldSize = 1;
    p.command = "./vector_add --n 1048576";
    p.startNs = 0;
    p.endNs = 100'000;
    p.exitStatus = 0;
    RIDGELINE_TRY(w.addProcess(p));
    const Thread threads[] = { { 0, 1, 4242, "main" }, { 0, 1, 4243, "worker" } };
    RIDGELINE_TRY(w.addThreads(threads));

    auto vectorAdd = w.internKernelName("_Z9vectorAddPKfS0_Pfi");
    auto sgemm = w.internKernelName("ampere_sgemm_128x64_nn");
    auto allReduce = w.internKernelName("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
        "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)");
    auto templated = w.internKernelName("_ZN7cutlass6KernelIiEEvPi");
    for (const auto* id : { &vectorAdd, &sgemm, &allReduce, &templated }) {
        if (id->hasError())
            return id->error();
    }
    // Durations chosen so the report can be checked by hand (tests/data/README.md).
    const Kernel kernels[] = {
        kernel(0, 7, vectorAdd.value(), 1'000, 1'000, 101),
        kernel(0, 7, vectorAdd.value(), 3'000, 2'000, 102),
        kernel(0, 7, vectorAdd.value(), 6'000, 3'000, 103),
        kernel(0, 13, sgemm.value(), 10'000, 10'000, 104),
        kernel(0, 13, sgemm.value(), 21'000, 14'000, 105),
        kernel(1, 7, allReduce.value(), 12'000, 5'000, 106),
        kernel(1, 7, vectorAdd.value(), 40'000, 500, 107),
        kernel(1, 21, templated.value(), 41'000, 1'500, 108),
    };
    auto firstKernel = w.addKernels(kernels);
    if (firstKernel.hasError())
        return firstKernel.error();
    const std::int64_t k0 = firstKernel.value();

    const MetricValue metrics[] = {
        { k0, "gpu__time_duration.sum", 1000.0, "ns" },
        { k0, "dram__bytes.sum", 2'097'152.0, "byte" },
        { k0, "sm__sass_thread_inst_executed_op_fadd_pred_on.sum", 262'144.0, "inst" },
    };
    RIDGELINE_TRY(w.addMetrics(metrics));
    const Ceiling ceilings[] = {
        { 0, "DRAM", 3.35e12, "B/s", CeilingSource::Datasheet, "fixture value" },
        { 0, "FP32", 67e12, "FLOP/s", CeilingSource::Datasheet, "fixture value" },
    };
    RIDGELINE_TRY(w.addCeilings(ceilings));

    MemOp h2d;
    h2d.processId = 1;
    h2d.deviceId = 0;
    h2d.streamId = 7;
    h2d.correlationId = 90;
    h2d.kind = MemOpKind::MemcpyHtoD;
    h2d.bytes = 4'194'304;
    h2d.startNs = 0;
    h2d.endNs = 900;
    h2d.srcMemory = "pinned";
    h2d.dstMemory = "device";
    MemOp memset = h2d;
    memset.kind = MemOpKind::Memset;
    memset.correlationId = 91;
    memset.startNs = 36'000;
    memset.endNs = 36'200;
    memset.srcMemory.clear();
    const MemOp memops[] = { h2d, memset };
    RIDGELINE_TRY(w.addMemOps(memops));

    const ApiCall calls[] = {
        { 0, 1, 4242, "runtime", "cudaMemcpyAsync", 90, 0, 50, 0 },
        { 0, 1, 4242, "runtime", "cudaLaunchKernel", 101, 800, 820, 0 },
        { 0, 1, 4242, "runtime", "cudaLaunchKernel", 102, 900, 915, 0 },
    };
    RIDGELINE_TRY(w.addApiCalls(calls));
    const NvtxRange ranges[] = { { 0, 1, 4242, "default", "step 0", 0, 50'000, 0xFF00FF00u, 0 } };
    RIDGELINE_TRY(w.addNvtxRanges(ranges));
    CommOp op;
    op.kernelId = k0 + 5;
    op.processId = 1;
    op.deviceId = 1;
    op.collective = "AllReduce";
    op.bytes = 4096 * 4;
    op.dataType = "f32";
    op.groupSize = 2;
    op.algorithm = "Ring";
    op.protocol = "LL";
    op.processGroup = "default_pg";
    op.startNs = 12'000;
    op.endNs = 17'000;
    const CommOp ops[] = { op };
    RIDGELINE_TRY(w.addCommOps(ops));
    const Verdict verdicts[] = { { k0 + 5, VerdictClass::CommunicationBound, "collective", std::nullopt,
        "communication-bound: an NCCL AllReduce of 16 KiB" } };
    RIDGELINE_TRY(w.setVerdicts(verdicts));
    return w.finish(SessionStatus::Complete);
}

Status writeSyntheticKernels(SessionWriter& writer, const SyntheticSpec& spec)
{
    std::vector<std::int64_t> nameIds;
    for (int i = 0; i < spec.kernelNames; ++i) {
        auto id = writer.internKernelName(fmt::format("_Z14syntheticKernelILi{}EEvPfS0_i", i));
        if (id.hasError())
            return id.error();
        nameIds.push_back(id.value());
    }
    const int lanes = spec.devices * spec.streamsPerDevice;
    std::vector<std::int64_t> laneClock(static_cast<std::size_t>(lanes), 1'000'000);
    std::vector<Kernel> batch;
    batch.reserve(static_cast<std::size_t>(spec.batchSize));
    for (std::int64_t i = 0; i < spec.kernels; ++i) {
        const auto device = static_cast<int>(i % spec.devices);
        const auto stream = static_cast<int>((i / spec.devices) % spec.streamsPerDevice);
        auto& clock = laneClock[static_cast<std::size_t>(device * spec.streamsPerDevice + stream)];
        const std::int64_t duration = 2'000 + (i * 7919) % 50'000;
        Kernel k = kernel(
            device, stream + 7, nameIds[static_cast<std::size_t>(i % spec.kernelNames)], clock, duration, i + 1);
        k.grid = { static_cast<std::uint32_t>(128 + i % 4096), 1, 1 };
        clock += duration + 1'500;
        batch.push_back(k);
        if (static_cast<std::int64_t>(batch.size()) == spec.batchSize) {
            auto added = writer.addKernels(batch);
            if (added.hasError())
                return added.error();
            batch.clear();
        }
    }
    if (!batch.empty()) {
        auto added = writer.addKernels(batch);
        if (added.hasError())
            return added.error();
    }
    return {};
}

Status writeSyntheticSession(const std::string& path, const SyntheticSpec& spec)
{
    auto created = createFixture(path);
    if (created.hasError())
        return created.error();
    SessionWriter& w = created.value();
    for (int d = 0; d < spec.devices; ++d)
        RIDGELINE_TRY(w.addDevice(fixtureDevice(d, d)));
    Process p;
    p.id = 1;
    p.pid = 1;
    RIDGELINE_TRY(w.addProcess(p));
    RIDGELINE_TRY(writeSyntheticKernels(w, spec));
    return w.finish(SessionStatus::Complete);
}

Kernel kernelRecord(std::int64_t processId, std::int64_t deviceId, std::int64_t streamId, std::int64_t nameId,
    std::int64_t startNs, std::int64_t endNs, std::int64_t correlationId)
{
    return Kernel { .processId = processId, .deviceId = deviceId, .streamId = streamId, .correlationId = correlationId,
        .nameId = nameId, .startNs = startNs, .endNs = endNs, .grid = {}, .block = {} };
}

Status writeTwoRanks(SessionWriter& writer, const std::string& deviceName, bool numbered)
{
    for (int d = 0; d < 2; ++d) {
        Device dev;
        dev.id = d;
        dev.ordinal = d;
        dev.name = numbered ? deviceName + " " + std::to_string(d) : deviceName;
        if (auto added = writer.addDevice(dev); added.hasError())
            return added.error();
    }
    for (int r = 0; r < 2; ++r) {
        Process p;
        p.id = r + 1;
        p.pid = 100 + r;
        p.rank = r;
        p.worldSize = 2;
        if (auto added = writer.addProcess(p); added.hasError())
            return added.error();
    }
    return {};
}

} // namespace ridgeline::testing

// SPDX-License-Identifier: MIT
// Each CUPTI record type, filled as CUPTI fills it, through the translator into a part file and
// back out with SessionReader.
#include "partfixture.h"
#include "records.h"

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

namespace ridgeline::testing {

using Translate = PartFixture;

TEST_F(Translate, KernelKeepsTimesLaunchConfigAndNames)
{
    const char* name = "_Z5triadPfPKfS1_f";
    auto k = kernelRecord(17, name, 5'000, 7'500);
    writeBuffer({ asActivity(k) });
    auto reader = finishAndOpen();
    auto kernels = reader.kernels();
    ASSERT_TRUE(kernels.ok());
    ASSERT_EQ(kernels.value().size(), 1u);
    const core::Kernel& kernel = kernels.value()[0];
    EXPECT_EQ(kernel.correlationId, 17);
    EXPECT_EQ(kernel.startNs, 5'000);
    EXPECT_EQ(kernel.endNs, 7'500);
    EXPECT_EQ(kernel.streamId, 7);
    EXPECT_EQ(kernel.contextId, 1);
    EXPECT_EQ(kernel.deviceId, 0);
    EXPECT_EQ(kernel.grid, (core::Dim3 { 1024, 2, 1 }));
    EXPECT_EQ(kernel.block, (core::Dim3 { 256, 1, 1 }));
    EXPECT_EQ(kernel.registersPerThread, 40);
    EXPECT_EQ(kernel.staticSharedBytes, 4096);
    EXPECT_EQ(kernel.dynamicSharedBytes, 8192);
    auto names = reader.kernelNames();
    ASSERT_TRUE(names.ok());
    ASSERT_EQ(names.value().size(), 1u);
    EXPECT_EQ(names.value()[0].raw, name);
    EXPECT_EQ(names.value()[0].demangled, "triad(float*, float const*, float const*, float)");
    EXPECT_EQ(kernel.nameId, names.value()[0].id);
    auto comms = reader.commOps();
    ASSERT_TRUE(comms.ok());
    EXPECT_TRUE(comms.value().empty()); // an ordinary kernel is not a collective
}

TEST_F(Translate, NcclKernelCarriesACollective)
{
    const char* name = "_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE";
    auto k = kernelRecord(3, name, 100, 900);
    auto other = kernelRecord(4, "_Z5triadPfPKfS1_f", 1000, 1100);
    writeBuffer({ asActivity(other), asActivity(k) });
    auto reader = finishAndOpen();
    auto comms = reader.commOps();
    ASSERT_TRUE(comms.ok());
    ASSERT_EQ(comms.value().size(), 1u);
    const core::CommOp& op = comms.value()[0];
    EXPECT_EQ(op.collective, "AllReduce");
    EXPECT_EQ(op.dataType, "f32");
    EXPECT_EQ(op.algorithm, "Ring");
    EXPECT_EQ(op.protocol, "LL");
    EXPECT_EQ(op.startNs, 100);
    EXPECT_EQ(op.endNs, 900);
    auto kernels = reader.kernels();
    ASSERT_TRUE(kernels.ok());
    ASSERT_TRUE(op.kernelId.has_value());
    const auto carrier = std::find_if(kernels.value().begin(), kernels.value().end(),
        [&](const core::Kernel& kernel) { return kernel.id == *op.kernelId; });
    ASSERT_NE(carrier, kernels.value().end());
    EXPECT_EQ(carrier->correlationId, 3); // the NCCL kernel, not its neighbour in the buffer
}

TEST_F(Translate, CopiesKeepDirectionMemoryAndPeers)
{
    auto h2d = memcpyRecord(20, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, 1 << 20, 10, 110);
    auto d2h = memcpyRecord(21, CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, 4096, 200, 240);
    auto p2p = peerCopyRecord(22, 0, 1, 1 << 24, 300, 700);
    auto set = memsetRecord(23, 512, 800, 810);
    writeBuffer({ asActivity(h2d), asActivity(d2h), asActivity(p2p), asActivity(set) });
    auto reader = finishAndOpen();
    auto memops = reader.memOps();
    ASSERT_TRUE(memops.ok());
    ASSERT_EQ(memops.value().size(), 4u);
    std::map<std::int64_t, core::MemOp> byCorrelation;
    for (const auto& op : memops.value())
        byCorrelation[op.correlationId] = op;
    EXPECT_EQ(byCorrelation[20].kind, core::MemOpKind::MemcpyHtoD);
    EXPECT_EQ(byCorrelation[20].bytes, 1 << 20);
    EXPECT_EQ(byCorrelation[20].srcMemory, "pinned");
    EXPECT_EQ(byCorrelation[20].dstMemory, "device");
    EXPECT_EQ(byCorrelation[21].kind, core::MemOpKind::MemcpyDtoH);
    EXPECT_EQ(byCorrelation[21].dstMemory, "pageable");
    EXPECT_EQ(byCorrelation[22].kind, core::MemOpKind::MemcpyPtoP);
    EXPECT_EQ(byCorrelation[22].srcDeviceId, 0);
    EXPECT_EQ(byCorrelation[22].dstDeviceId, 1);
    EXPECT_EQ(byCorrelation[22].bytes, 1 << 24);
    EXPECT_EQ(byCorrelation[22].streamId, 9);
    EXPECT_EQ(byCorrelation[23].kind, core::MemOpKind::Memset);
    EXPECT_EQ(byCorrelation[23].bytes, 512);
    EXPECT_EQ(byCorrelation[23].startNs, 800);
    EXPECT_EQ(byCorrelation[23].endNs, 810);
}

TEST_F(Translate, ApiCallsGetNamesDomainsAndThreads)
{
    auto runtime
        = apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 30, 555, 1, 9);
    auto driver = apiRecord(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 30, 555, 2, 8);
    auto unnamed = apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, 9999, 31, 556, 10, 12);
    auto named = threadNameRecord(556, "data loader");
    writeBuffer({ asActivity(named), asActivity(runtime), asActivity(driver), asActivity(unnamed) });
    auto reader = finishAndOpen();
    auto calls = reader.apiCalls();
    ASSERT_TRUE(calls.ok());
    ASSERT_EQ(calls.value().size(), 3u);
    std::map<std::string, core::ApiCall> byName;
    for (const auto& call : calls.value())
        byName[call.name] = call;
    ASSERT_EQ(byName.count("cudaLaunchKernel"), 1u); // CUPTI's "_v7000" suffix removed
    EXPECT_EQ(byName["cudaLaunchKernel"].domain, "runtime");
    EXPECT_EQ(byName["cudaLaunchKernel"].threadId, 555);
    EXPECT_EQ(byName["cudaLaunchKernel"].correlationId, 30);
    ASSERT_EQ(byName.count("cuLaunchKernel"), 1u);
    EXPECT_EQ(byName["cuLaunchKernel"].domain, "driver");
    ASSERT_EQ(byName.count("runtime API 9999"), 1u); // unknown id: said so, not invented
    auto threads = reader.threads();
    ASSERT_TRUE(threads.ok());
    std::map<std::int64_t, std::string> names;
    for (const auto& thread : threads.value())
        names[thread.tid] = thread.name;
    ASSERT_EQ(names.size(), 2u);
    EXPECT_EQ(names[556], "data loader");
    EXPECT_EQ(names[555], "");
}

TEST_F(Translate, NvtxRangesPairAcrossBuffersWithColour)
{
    auto start = markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_START, 5, 555, 1'000, "forward", "training");
    auto data = markerDataRecord(5, 0xFF00FF00u, 3);
    auto mark = markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, 6, 555, 1'500, "checkpoint", nullptr);
    auto orphanEnd = markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_END, 77, 555, 1'600, nullptr, nullptr);
    writeBuffer({ asActivity(start), asActivity(data), asActivity(mark), asActivity(orphanEnd) });
    EXPECT_EQ(translator->openRanges(), 1u);
    auto end = markerRecord(CUPTI_ACTIVITY_FLAG_MARKER_END, 5, 555, 2'000, nullptr, nullptr);
    writeBuffer({ asActivity(end) });
    EXPECT_EQ(translator->openRanges(), 0u);
    auto reader = finishAndOpen();
    auto ranges = reader.nvtxRanges();
    ASSERT_TRUE(ranges.ok());
    ASSERT_EQ(ranges.value().size(), 2u);
    std::map<std::string, core::NvtxRange> byName;
    for (const auto& range : ranges.value())
        byName[range.name] = range;
    EXPECT_EQ(byName["forward"].domain, "training");
    EXPECT_EQ(byName["forward"].startNs, 1'000);
    EXPECT_EQ(byName["forward"].endNs, 2'000);
    EXPECT_EQ(byName["forward"].color, 0xFF00FF00u);
    EXPECT_EQ(byName["forward"].category, 3);
    EXPECT_EQ(byName["forward"].threadId, 555);
    EXPECT_EQ(byName["checkpoint"].domain, "default");
    EXPECT_EQ(byName["checkpoint"].startNs, byName["checkpoint"].endNs);
}

TEST_F(Translate, SynchronisationAndOverheadBecomeTimedCalls)
{
    auto sync = syncRecord(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, 40, 100, 400);
    auto overhead = overheadRecord(CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION, 555, 500, 900);
    writeBuffer({ asActivity(sync), asActivity(overhead) });
    auto reader = finishAndOpen();
    auto calls = reader.apiCalls();
    ASSERT_TRUE(calls.ok());
    ASSERT_EQ(calls.value().size(), 2u);
    std::map<std::string, core::ApiCall> byDomain;
    for (const auto& call : calls.value())
        byDomain[call.domain] = call;
    EXPECT_EQ(byDomain["sync"].name, "StreamSynchronize");
    EXPECT_EQ(byDomain["sync"].correlationId, 40);
    EXPECT_EQ(byDomain["sync"].endNs - byDomain["sync"].startNs, 300);
    EXPECT_EQ(byDomain["overhead"].name, "CUPTI instrumentation");
    EXPECT_EQ(byDomain["overhead"].threadId, 555);
}

TEST_F(Translate, DeviceRecordBecomesADeviceOnce)
{
    auto device = deviceRecord(0, "NVIDIA H100 80GB HBM3");
    auto again = deviceRecord(0, "NVIDIA H100 80GB HBM3");
    writeBuffer({ asActivity(device) });
    writeBuffer({ asActivity(again) }); // CUPTI may report a device again: one row
    auto reader = finishAndOpen();
    auto devices = reader.devices();
    ASSERT_TRUE(devices.ok());
    ASSERT_EQ(devices.value().size(), 1u);
    const core::Device& d = devices.value()[0];
    EXPECT_EQ(d.name, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(d.ccMajor, 9);
    EXPECT_EQ(d.ccMinor, 0);
    EXPECT_EQ(d.smCount, 132);
    EXPECT_EQ(d.coreClockKhz, 1'980'000);
    EXPECT_EQ(d.memoryBytes, 85'899'345'920LL);
    EXPECT_EQ(d.l2CacheBytes, 52'428'800);
    EXPECT_EQ(d.maxThreadsPerSm, 2048);
    EXPECT_EQ(d.uuid, "GPU-10111213-1415-1617-1819-1a1b1c1d1e1f");
}

TEST(TranslateNames, VersionSuffixIsRemovedOnlyWhenItIsOne)
{
    EXPECT_EQ(inject::withoutVersionSuffix("cudaLaunchKernel_v7000"), "cudaLaunchKernel");
    EXPECT_EQ(inject::withoutVersionSuffix("cuLaunchKernel"), "cuLaunchKernel");
    EXPECT_EQ(inject::withoutVersionSuffix("cuMemcpy_v2x"), "cuMemcpy_v2x");
    EXPECT_EQ(inject::withoutVersionSuffix("cuda_v"), "cuda_v");
}

TEST(TranslateNames, MemcpyKindsMapToDirections)
{
    EXPECT_EQ(inject::memcpyKind(CUPTI_ACTIVITY_MEMCPY_KIND_HTOA), core::MemOpKind::MemcpyHtoD);
    EXPECT_EQ(inject::memcpyKind(CUPTI_ACTIVITY_MEMCPY_KIND_ATOH), core::MemOpKind::MemcpyDtoH);
    EXPECT_EQ(inject::memcpyKind(CUPTI_ACTIVITY_MEMCPY_KIND_DTOD), core::MemOpKind::MemcpyDtoD);
    EXPECT_EQ(inject::memcpyKind(CUPTI_ACTIVITY_MEMCPY_KIND_HTOH), core::MemOpKind::MemcpyHtoH);
    EXPECT_EQ(inject::memcpyKind(CUPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN), core::MemOpKind::Other);
    EXPECT_STREQ(inject::memoryKindName(CUPTI_ACTIVITY_MEMORY_KIND_MANAGED), "managed");
    EXPECT_STREQ(inject::memoryKindName(CUPTI_ACTIVITY_MEMORY_KIND_UNKNOWN), "");
}

} // namespace ridgeline::testing

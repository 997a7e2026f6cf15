// SPDX-License-Identifier: MIT
#include "partfixture.h"

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

namespace ridgeline::testing {

std::string callbackName(CUpti_ActivityKind kind, std::uint32_t cbid)
{
    // The names cuptiGetCallbackName gives for these ids (with CUPTI's version suffix).
    if (kind == CUPTI_ACTIVITY_KIND_RUNTIME && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000)
        return "cudaLaunchKernel_v7000";
    if (kind == CUPTI_ACTIVITY_KIND_RUNTIME && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020)
        return "cudaMemcpyAsync_v3020";
    if (kind == CUPTI_ACTIVITY_KIND_DRIVER && cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel)
        return "cuLaunchKernel";
    return {};
}

void PartFixture::SetUp()
{
    path = dir.file("host-4242.part.ridge");
    inject::PartIdentity identity;
    identity.pid = 4242;
    identity.host = "node7";
    identity.command = "./train --epochs 1";
    identity.sessionId = "s-1";
    identity.startNs = 1000;
    auto created = inject::PartWriter::create(path, identity);
    ASSERT_TRUE(created.ok()) << created.error().message;
    part.emplace(std::move(created).value());
    translator.emplace(part->processId(), callbackName);
}

inject::TranslatedBatch PartFixture::writeBuffer(const std::vector<const CUpti_Activity*>& records)
{
    inject::TranslatedBatch batch;
    translator->translate(records, batch);
    auto written = part->write(batch);
    EXPECT_TRUE(written.ok()) << written.error().message;
    return batch;
}

core::SessionReader PartFixture::finishAndOpen()
{
    auto finished = part->finish(99'000);
    EXPECT_TRUE(finished.ok()) << finished.error().message;
    part.reset();
    return open();
}

core::SessionReader PartFixture::open()
{
    auto reader = core::SessionReader::open(path);
    if (reader.hasError())
        ADD_FAILURE() << reader.error().message;
    return std::move(reader).value();
}

} // namespace ridgeline::testing

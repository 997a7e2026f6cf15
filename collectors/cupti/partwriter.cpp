// SPDX-License-Identifier: MIT
#include "partwriter.h"

#include "ridgeline/core/model/demangle.h"
#include "ridgeline/core/store/sessionformat.h"

#include <utility>

namespace ridgeline::inject {

using core::Result;
using core::Status;

Result<PartWriter> PartWriter::create(const std::string& path, const PartIdentity& identity)
{
    core::WriterOptions options;
    options.atomic = false; // a live part: readable while it grows, partial until finish()
    auto writer = core::SessionWriter::create(path, options);
    if (writer.hasError())
        return writer.error();
    core::Process process;
    process.pid = identity.pid;
    process.host = identity.host;
    process.command = identity.command;
    process.startNs = identity.startNs;
    auto processId = writer.value().addProcess(process);
    if (processId.hasError())
        return processId.error();
    PartWriter part(std::move(writer).value(), processId.value());
    const std::pair<const char*, std::string> meta[] = {
        { core::metakey::Source, "capture" },
        { core::metakey::CaptureCommand, identity.command },
        { partmeta::Pid, std::to_string(identity.pid) },
        { partmeta::Host, identity.host },
        { partmeta::Command, identity.command },
        { partmeta::SessionId, identity.sessionId },
        { partmeta::DroppedRecords, "0" },
        { partmeta::StartNs, std::to_string(identity.startNs) },
    };
    for (const auto& [key, value] : meta)
        RIDGELINE_TRY(part.m_writer.setMeta(key, value));
    return part;
}

PartWriter::PartWriter(core::SessionWriter writer, std::int64_t processId)
    : m_writer(std::move(writer))
    , m_processId(processId)
{ }

Status PartWriter::write(const TranslatedBatch& batch)
{
    if (batch.empty())
        return {};
    RIDGELINE_TRY(m_writer.beginBatch());
    auto body = [&]() -> Status {
        for (const auto& device : batch.devices)
            RIDGELINE_TRY(m_writer.addDevice(device));
        RIDGELINE_TRY(m_writer.addThreads(batch.threads));
        std::int64_t firstKernel = 0;
        if (!batch.kernels.empty()) {
            std::vector<core::Kernel> kernels = batch.kernels;
            for (std::size_t i = 0; i < kernels.size(); ++i) {
                const std::string& raw = batch.kernelNames.at(i);
                auto known = m_nameIds.find(raw);
                if (known == m_nameIds.end()) {
                    auto id = m_writer.internKernelName(raw);
                    if (id.hasError())
                        return id.error();
                    known = m_nameIds.emplace(raw, id.value()).first;
                }
                kernels[i].nameId = known->second;
            }
            auto first = m_writer.addKernels(kernels);
            if (first.hasError())
                return first.error();
            firstKernel = first.value();
            std::vector<core::MetricValue> metrics;
            for (std::size_t i = 0; i < kernels.size(); ++i) {
                const std::int64_t kernelId = firstKernel + static_cast<std::int64_t>(i);
                const auto correlation = static_cast<std::uint32_t>(kernels[i].correlationId);
                if (auto pending = m_pendingCounters.find(correlation); pending != m_pendingCounters.end()) {
                    for (auto value : pending->second) {
                        value.kernelId = kernelId;
                        metrics.push_back(std::move(value));
                    }
                    m_pendingCounters.erase(pending);
                    m_expected.erase(correlation);
                } else if (auto expected = m_expected.find(correlation); expected != m_expected.end()) {
                    expected->second = kernelId;
                }
            }
            RIDGELINE_TRY(m_writer.addMetrics(metrics));
            // Kernels of profiled graph launches, by launch (all of this buffer's at once).
            std::map<std::uint32_t, std::vector<GraphKernelRow>> graphKernels;
            for (std::size_t i = 0; i < kernels.size(); ++i) {
                const auto correlation = static_cast<std::uint32_t>(kernels[i].correlationId);
                if (kernels[i].graphId != 0 && m_graphs.expects(correlation))
                    graphKernels[correlation].push_back(GraphKernelRow { firstKernel + static_cast<std::int64_t>(i),
                        batch.kernelNames.at(i), core::demangle(batch.kernelNames.at(i)), kernels[i].startNs });
            }
            for (auto& [correlation, rows] : graphKernels)
                RIDGELINE_TRY(apply(m_graphs.kernels(correlation, std::move(rows))));
        }
        if (!batch.commOps.empty()) {
            std::vector<core::CommOp> ops;
            ops.reserve(batch.commOps.size());
            for (const auto& pending : batch.commOps) {
                core::CommOp op = pending.op;
                op.kernelId = firstKernel + static_cast<std::int64_t>(pending.kernelIndex);
                ops.push_back(std::move(op));
            }
            RIDGELINE_TRY(m_writer.addCommOps(ops));
        }
        RIDGELINE_TRY(m_writer.addMemOps(batch.memops));
        RIDGELINE_TRY(m_writer.addApiCalls(batch.apiCalls));
        RIDGELINE_TRY(m_writer.addNvtxRanges(batch.nvtxRanges));
        return {};
    };
    const Status written = body();
    const Status committed = m_writer.commitBatch(); // commits what was written (or rolls back a failed commit)
    if (written.hasError())
        return written.error();
    return committed;
}

void PartWriter::expectCounters(std::uint32_t correlationId)
{
    m_expected.emplace(correlationId, std::nullopt);
}

Status PartWriter::addCounters(std::uint32_t correlationId, std::vector<core::MetricValue> values)
{
    auto expected = m_expected.find(correlationId);
    if (expected != m_expected.end() && expected->second) {
        for (auto& value : values)
            value.kernelId = *expected->second;
        m_expected.erase(expected);
        return m_writer.addMetrics(values);
    }
    auto& pending = m_pendingCounters[correlationId];
    for (auto& value : values)
        pending.push_back(std::move(value));
    return {};
}

void PartWriter::expectGraphCounters(std::uint32_t correlationId)
{
    m_graphs.expect(correlationId);
}

Status PartWriter::addGraphCounters(std::uint32_t correlationId, std::vector<GraphRange> ranges)
{
    return apply(m_graphs.ranges(correlationId, std::move(ranges)));
}

Status PartWriter::apply(const GraphAttribution& attribution)
{
    if (attribution.empty())
        return {};
    RIDGELINE_TRY(m_writer.addMetrics(attribution.metrics));
    if (!attribution.graphLevel.empty())
        RIDGELINE_TRY(m_writer.setGraphRangeKernels(attribution.graphLevel, attribution.graphLevelKernels));
    if (!attribution.warning.empty())
        RIDGELINE_TRY(addWarning(attribution.warning));
    return {};
}

Status PartWriter::addDropped(std::uint64_t records)
{
    m_dropped += records;
    return m_writer.setMeta(partmeta::DroppedRecords, std::to_string(m_dropped));
}

Status PartWriter::appendMeta(const char* key, std::string& text, const std::string& sentence)
{
    if (text.find(sentence) != std::string::npos)
        return {}; // the same sentence once is enough
    if (!text.empty())
        text += '\n';
    text += sentence;
    return m_writer.setMeta(key, text);
}

Status PartWriter::addError(const std::string& sentence)
{
    return appendMeta(partmeta::Error, m_errors, sentence);
}

Status PartWriter::addWarning(const std::string& sentence)
{
    return appendMeta(partmeta::Warning, m_warnings, sentence);
}

Status PartWriter::setMeta(const std::string& key, const std::string& value)
{
    return m_writer.setMeta(key, value);
}

Status PartWriter::finish(std::int64_t endNs)
{
    RIDGELINE_TRY(m_writer.setMeta(partmeta::EndNs, std::to_string(endNs)));
    return m_writer.finish(core::SessionStatus::Complete);
}

} // namespace ridgeline::inject

// SPDX-License-Identifier: MIT
#include "importsession.h"

#include "ridgeline/collectors/ceilings/gpucatalogue.h"
#include "ridgeline/collectors/ceilings/gpuidentify.h"
#include "ridgeline/core/analysis/collectives.h"
#include "ridgeline/core/base/saturating.h"
#include "ridgeline/core/store/sessionformat.h"

#include <cmath>
#include <filesystem>
#include <fmt/format.h>

namespace ridgeline::collectors::importing {

core::Status checkOutput(const std::vector<std::string>& inputs, const std::string& sessionPath, bool overwrite)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(sessionPath, ec))
        return {};
    for (const auto& path : inputs) {
        if (fs::equivalent(path, sessionPath, ec))
            return core::makeError(
                core::ErrorCode::InvalidArgument, fmt::format("{}: the output would replace the input", sessionPath));
    }
    if (!overwrite)
        return core::makeError(core::ErrorCode::InvalidArgument,
            fmt::format("{} already exists (choose another name, or overwrite it)", sessionPath));
    return {};
}

core::Result<core::SessionWriter> beginSession(
    const std::string& sessionPath, bool overwrite, std::string_view source, std::string_view origin)
{
    core::WriterOptions options;
    options.replaceExisting = overwrite;
    auto created = core::SessionWriter::create(sessionPath, options);
    if (created.hasError())
        return created.error();
    RIDGELINE_TRY(beginImport(created.value(), source, origin));
    return created;
}

core::Status beginImport(core::SessionWriter& writer, std::string_view source, std::string_view origin)
{
    RIDGELINE_TRY(writer.beginBatch());
    RIDGELINE_TRY(writer.setMeta(core::metakey::Source, source));
    return writer.setMeta(core::metakey::Origin, origin);
}

std::int64_t kilohertz(double hz)
{
    const double khz = std::round(hz / 1000.0);
    return std::isfinite(khz) && khz > 0 && khz < 9.0e15 ? static_cast<std::int64_t>(khz) : 0;
}

bool isUnnamedGpu(const core::Device& device)
{
    return device.name.empty() || device.name == "unknown GPU";
}

namespace {

GpuFacts factsOf(const core::Device& device)
{
    return { device.ccMajor, device.ccMinor, device.smCount, device.coreClockKhz, device.memoryClockKhz,
        device.memoryBusWidthBits, device.memoryBytes };
}

} // namespace

std::string unnamedGpuNote(const core::Device& device)
{
    return identifyUnnamedGpu(factsOf(device)).note;
}

std::optional<CatalogueMatch> catalogueCeilings(core::Device& device)
{
    GpuResolution found;
    if (isUnnamedGpu(device)) {
        auto identified = identifyUnnamedGpu(factsOf(device));
        found = { identified.spec, std::move(identified.note) };
    } else {
        found = resolveGpu(device.name, device.ccMajor, device.ccMinor, device.smCount);
    }
    if (found.spec == nullptr)
        return std::nullopt;
    if (device.coreClockKhz == 0)
        device.coreClockKhz = kilohertz(found.spec->boostClockHz);
    return CatalogueMatch { datasheetCeilings(*found.spec, device.id), std::move(found.note) };
}

core::Status writeDevice(core::SessionWriter& writer, const core::Device& device, const CeilingsByDevice& ceilings)
{
    if (auto added = writer.addDevice(device); added.hasError())
        return added.error();
    if (auto it = ceilings.find(device.id); it != ceilings.end())
        RIDGELINE_TRY(writer.addCeilings(it->second));
    return {};
}

core::KernelFacts launchFacts(
    const core::Kernel& kernel, const core::Device* device, const CeilingsByDevice& ceilings, std::string name)
{
    core::KernelFacts facts;
    facts.kernelId = kernel.id;
    facts.durationNs = kernel.durationNs();
    facts.grid = kernel.grid;
    facts.block = kernel.block;
    facts.device = device;
    if (auto it = ceilings.find(kernel.deviceId); it != ceilings.end())
        facts.ceilings = it->second;
    facts.name = std::move(name);
    return facts;
}

std::optional<core::CollectiveFigures> collectiveFigures(
    const core::CommOp& op, const core::Device* device, const CeilingsByDevice& ceilings)
{
    const auto factor = core::busBandwidthFactor(core::collectiveTypeFromName(op.collective), op.groupSize);
    if (op.bytes <= 0 || !factor || op.endNs <= op.startNs)
        return std::nullopt;
    core::CollectiveFigures f;
    f.collective = op.collective;
    f.launches = 1;
    f.bytes = static_cast<double>(op.bytes);
    f.busBytes = f.bytes * *factor;
    f.durationNs = static_cast<double>(core::saturatingSub(op.endNs, op.startNs));
    f.algorithm = op.algorithm;
    f.protocol = op.protocol;
    core::LinkContext context;
    context.device = device;
    if (auto c = ceilings.find(op.deviceId); c != ceilings.end())
        context.ceilings = c->second;
    context.groupSize = op.groupSize;
    f.link = core::chooseLink(context);
    return f;
}

std::string joined(const std::vector<std::string>& parts, std::string_view separator)
{
    std::string text;
    for (const auto& part : parts) {
        if (!text.empty())
            text += separator;
        text += part;
    }
    return text;
}

core::Status endImport(core::SessionWriter& writer, const ImportWarnings& warnings)
{
    if (!warnings.empty())
        RIDGELINE_TRY(writer.setMeta("warning", joinedText(warnings, "; ")));
    return writer.commitBatch();
}

core::Status finishSession(core::SessionWriter& writer, const ImportWarnings& warnings)
{
    RIDGELINE_TRY(endImport(writer, warnings));
    return writer.finish(core::SessionStatus::Complete);
}

} // namespace ridgeline::collectors::importing

// SPDX-License-Identifier: MIT
// The launcher's half of the crash path (crashlog.h): a crash file becomes a part file. Not in
// the injection library, which never reads sessions.
#include "crashlog.h"
#include "openranges.h"
#include "partwriter.h"
#include "ridgeline/collectors/launch/partfiles.h"
#include "ridgeline/core/store/sessionreader.h"

#include <cstring>
#include <fmt/format.h>

namespace ridgeline::inject {

core::Result<CrashRecovery> recoverCrashFile(
    const std::string& crashPath, const std::string& mainPart, const CallbackNamer& namer)
{
    auto contents = readCrashFile(crashPath);
    if (contents.hasError())
        return contents.error();
    CrashRecovery out;
    out.signal = contents.value().signal;
    if (contents.value().records.empty())
        return out;
    PartIdentity identity;
    TranslatedBatch batch;
    OpenRanges open; // NVTX ranges the main part saw start: their ends may be in the crash file
    if (auto main = core::SessionReader::open(mainPart); main.ok()) {
        auto meta = main.value().meta();
        if (meta.ok()) {
            identity.host = meta.value()[partmeta::Host];
            identity.command = meta.value()[partmeta::Command];
            identity.sessionId = meta.value()[partmeta::SessionId];
            identity.pid = std::strtoll(meta.value()[partmeta::Pid].c_str(), nullptr, 10);
            open = decodeOpenRanges(meta.value()[kOpenNvtxMeta]);
        }
        if (auto devices = main.value().devices(); devices.ok())
            batch.devices = devices.value();
    }
    const std::string base = crashPath.substr(0, crashPath.size() - std::string_view(kCrashSuffix).size());
    out.partPath = base + "-crash.part.ridge";
    auto part = PartWriter::create(out.partPath, identity);
    if (part.hasError())
        return part.error();
    ActivityTranslator translator(part.value().processId(), namer);
    for (auto& [id, range] : open)
        translator.resumeOpenRange(id, std::move(range));
    auto& records = contents.value().records;
    for (std::size_t i = 0; i < records.size(); ++i) {
        // The strings the record pointed to in the dead process: point at the recovered copies.
        auto* bytes = reinterpret_cast<std::uint8_t*>(records[i].data());
        const auto& strings = contents.value().strings[i];
        for (const auto& [offset, text] : strings) {
            const char* pointer = text.c_str();
            std::memcpy(bytes + offset, &pointer, sizeof pointer);
        }
        translator.translate(*reinterpret_cast<const CUpti_Activity*>(bytes), batch);
    }
    RIDGELINE_TRY(part.value().write(batch));
    RIDGELINE_TRY(part.value().addWarning(fmt::format(
        "the process died of signal {}; {} activity records flushed by its signal handler were recovered{}.",
        out.signal, contents.value().records.size(),
        contents.value().truncated ? " (the last one was cut short and is lost)" : "")));
    if (out.signal != 0)
        RIDGELINE_TRY(part.value().setMeta("capture.signal", std::to_string(out.signal)));
    out.records = contents.value().records.size();
    return out; // left partial: the process never finished
}

core::Status recoverCrashPart(const std::string& crashPath)
{
    const std::string mainPart
        = crashPath.substr(0, crashPath.size() - std::string_view(kCrashSuffix).size()) + collectors::kPartSuffix;
    auto recovered = recoverCrashFile(crashPath, mainPart, [](CUpti_ActivityKind, std::uint32_t) { return std::string(); });
    if (recovered.hasError())
        return recovered.error();
    return {};
}

} // namespace ridgeline::inject

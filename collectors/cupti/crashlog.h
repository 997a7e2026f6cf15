// SPDX-License-Identifier: MIT
// The crash path: what the fatal-signal handler may do, and how the launcher recovers it.
//
// In the handler, CUPTI is asked to flush (the only way to get the records it holds) and each
// record it hands back is written, as is, to a file descriptor opened at start-up: write(2)
// only, no malloc, no locks, no SQLite. The file (`<host>-<pid>.crash` beside the part) is a
// sequence of frames after an 8-byte magic: u32 tag, u32 size, then size bytes. Tag 'R' is one
// activity record (a real CUPTI 13 record struct); tag 'T' follows it for each string the record
// points to (kernel, marker, domain, device and thread names live in CUPTI's memory, not in the
// record): u32 offset of the pointer in the record, then the NUL-terminated text. Tag 'S' is the
// signal number (int). The launcher
// turns a crash file into a part file of its own (`recoverCrashFile`), left `partial`, which the
// merge then takes in with the others. At a normal exit the empty file is removed.
#pragma once

#include "activitytranslate.h"
#include "ridgeline/core/base/result.h"

#include <cstdint>
#include <cupti_activity.h>
#include <string>
#include <utility>
#include <vector>

namespace ridgeline::inject {

inline constexpr char kCrashMagic[8] = { 'R', 'L', 'C', 'R', 'A', 'S', 'H', '1' };
inline constexpr const char* kCrashSuffix = ".crash";

// "<partDir>/<host>-<pid>.crash"
std::string crashFilePath(const std::string& partDir, const std::string& host, long pid);

// Opens (creates, truncates) the crash file and writes the magic: at start-up, never in a
// handler. -1 when it cannot be opened (the crash path is then off).
int openCrashFile(const std::string& path);

// Async-signal-safe (write(2) and strlen only). The record, then the strings it points to. False
// when a write failed or was short.
bool crashWriteRecord(int fd, const CUpti_Activity* record, std::uint32_t size) noexcept;
bool crashWriteSignal(int fd, int signal) noexcept;

struct CrashContents {
    // Each record in storage aligned for CUPTI's structs (8 bytes).
    std::vector<std::vector<std::uint64_t>> records;
    std::vector<std::uint32_t> sizes;
    // Per record: the strings it pointed to, by the pointer's offset in the record.
    std::vector<std::vector<std::pair<std::uint32_t, std::string>>> strings;
    int signal = 0;
    bool truncated = false; // the file ends inside a frame (the process died while writing)
};

// Bad magic or an unreadable file: an error; a truncated last frame is kept out and flagged.
core::Result<CrashContents> readCrashFile(const std::string& path);

struct CrashRecovery {
    std::string partPath; // empty when the crash file held no record
    std::size_t records = 0;
    int signal = 0;
};

// Writes the crash file's records into a new part file `<crash path without .crash>-crash.part.ridge`,
// left partial, with the devices of `mainPart` (the same process's part, when it exists) so that
// the records' device ids resolve after the merge. `namer` names API callbacks (may return "").
core::Result<CrashRecovery> recoverCrashFile(
    const std::string& crashPath, const std::string& mainPart, const CallbackNamer& namer);

// The launcher's recovery (collectors::CaptureRequest::recoverCrash): recoverCrashFile with the
// part of the same process beside it, API callbacks left unnamed (their names need libcupti).
core::Status recoverCrashPart(const std::string& crashPath);

} // namespace ridgeline::inject

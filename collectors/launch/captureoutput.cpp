// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/launch/captureoutput.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace ridgeline::collectors {

namespace {

namespace fs = std::filesystem;

// Enough to hold the session's schema and a first batch of records.
constexpr std::size_t kProbeBytes = 256 * 1024;

core::Status probeWrite(const std::string& dir)
{
    const auto probe = (fs::path(dir) / ".write-probe").string();
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return core::makeError(core::ErrorCode::Io, std::strerror(errno));
    const std::vector<char> zeros(kProbeBytes, 0);
    std::size_t written = 0;
    int error = 0;
    while (written < zeros.size()) {
        const auto n = ::write(fd, zeros.data() + written, zeros.size() - written);
        if (n <= 0) {
            error = n < 0 ? errno : ENOSPC;
            break;
        }
        written += static_cast<std::size_t>(n);
    }
    if (error == 0 && ::fsync(fd) != 0)
        error = errno;
    ::close(fd);
    ::unlink(probe.c_str());
    if (error != 0)
        return core::makeError(core::ErrorCode::Io, std::strerror(error));
    return {};
}

} // namespace

core::Result<PreparedOutput> prepareCaptureOutput(const std::string& output, bool overwrite)
{
    std::error_code ec;
    PreparedOutput prepared;
    prepared.output = fs::absolute(output, ec).lexically_normal().string();
    if (ec || prepared.output.empty() || prepared.output.back() == '/')
        return core::makeError(core::ErrorCode::InvalidArgument, fmt::format("{}: not a file name", output));
    if (fs::is_directory(prepared.output, ec))
        return core::makeError(
            core::ErrorCode::InvalidArgument, fmt::format("{} is a directory; -o names the session file", output));
    if (fs::exists(prepared.output, ec) && !overwrite)
        return core::makeError(core::ErrorCode::InvalidArgument,
            fmt::format("{} already exists (choose another name, or --force to replace it)", output));
    prepared.partDir = prepared.output + ".parts";
    if (fs::exists(prepared.partDir, ec))
        return core::makeError(core::ErrorCode::Io,
            fmt::format("{} exists: part files of an earlier capture that were not merged. Merge them "
                        "(ridgeline merge) or remove the directory, then capture again",
                prepared.partDir));
    const auto dir = fs::path(prepared.output).parent_path().string();
    if (!fs::is_directory(dir, ec))
        return core::makeError(
            core::ErrorCode::Io, fmt::format("cannot write {}: the directory {} does not exist", output, dir));
    if (::mkdir(prepared.partDir.c_str(), 0700) != 0)
        return core::makeError(
            core::ErrorCode::Io, fmt::format("cannot write in {} ({}): choose another -o", dir, std::strerror(errno)));
    if (auto probed = probeWrite(prepared.partDir); probed.hasError()) {
        fs::remove_all(prepared.partDir, ec);
        return core::makeError(core::ErrorCode::Io,
            fmt::format("cannot write in {} ({}): choose another -o", dir, probed.error().message));
    }
    return prepared;
}

std::string commandLine(const std::vector<std::string>& argv)
{
    std::string line;
    for (const auto& arg : argv) {
        const bool plain = !arg.empty() && std::all_of(arg.begin(), arg.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("-_./=:,+@%", c) != nullptr;
        });
        std::string quoted = arg;
        if (!plain) {
            quoted = "'";
            for (char c : arg)
                quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
            quoted += "'";
        }
        line += (line.empty() ? "" : " ") + quoted;
    }
    return line;
}

} // namespace ridgeline::collectors

// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/launch/cuptilocate.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <link.h>

namespace ridgeline::collectors {

namespace fs = std::filesystem;

namespace {

#if defined(__aarch64__)
constexpr std::string_view kTargetDir = "targets/sbsa-linux/lib";
constexpr std::string_view kMultiarchDir = "/usr/lib/aarch64-linux-gnu";
#else
constexpr std::string_view kTargetDir = "targets/x86_64-linux/lib";
constexpr std::string_view kMultiarchDir = "/usr/lib/x86_64-linux-gnu";
#endif

// Library directories inside one toolkit root, in the order the toolkit layouts use them.
std::vector<std::string> libraryDirs(const std::string& root)
{
    std::vector<std::string> dirs;
    for (const std::string_view sub : { std::string_view("lib64"), std::string_view("lib"), kTargetDir,
             std::string_view("extras/CUPTI/lib64"), std::string_view("extras/CUPTI/lib") })
        dirs.push_back((fs::path(root) / sub).string());
    return dirs;
}

bool isFile(const fs::path& path)
{
    std::error_code ec;
    return fs::is_regular_file(path, ec); // follows symlinks: a dangling link is no library
}

// libcupti.so.<other major> in `dir`, for the "wrong version" hint.
std::vector<std::string> otherCuptiVersions(const std::string& dir)
{
    std::vector<std::string> found;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const auto name = it->path().filename().string();
        if (name.rfind("libcupti.so.", 0) == 0 && name != kCuptiSoname && isFile(it->path()))
            found.push_back(it->path().string());
    }
    std::sort(found.begin(), found.end());
    return found;
}

std::optional<std::string> loaderLookup(const std::string& soname)
{
    void* handle = dlopen(soname.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (handle == nullptr)
        return std::nullopt;
    std::optional<std::string> path;
    link_map* map = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr && map->l_name != nullptr && map->l_name[0] == '/')
        path = map->l_name;
    dlclose(handle);
    return path;
}

std::string environment(const char* name)
{
    const char* value = std::getenv(name);
    return value == nullptr ? std::string() : std::string(value);
}

// Versions compare component by component, numerically where both are numbers.
bool newerVersion(const std::string& a, const std::string& b)
{
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        const auto endA = std::min(a.find('.', i), a.size());
        const auto endB = std::min(b.find('.', j), b.size());
        const auto partA = a.substr(i, endA - i);
        const auto partB = b.substr(j, endB - j);
        const bool numeric = !partA.empty() && !partB.empty()
            && partA.find_first_not_of("0123456789") == std::string::npos
            && partB.find_first_not_of("0123456789") == std::string::npos;
        if (numeric && partA.size() != partB.size())
            return partA.size() > partB.size(); // no leading zeros in CUDA versions
        if (partA != partB)
            return partA > partB;
        i = endA + 1;
        j = endB + 1;
    }
    return a.size() - std::min(i, a.size()) > b.size() - std::min(j, b.size());
}

struct Hit {
    std::string cupti;
    std::string nvperf;
};

std::optional<Hit> searchRoot(const std::string& root)
{
    const auto dirs = libraryDirs(root);
    for (const auto& dir : dirs) {
        const auto cupti = fs::path(dir) / kCuptiSoname;
        if (!isFile(cupti))
            continue;
        Hit hit { cupti.string(), {} };
        // Beside libcupti first (where libcupti itself loads it from), then elsewhere in the root.
        std::vector<std::string> nvperfDirs { dir };
        nvperfDirs.insert(nvperfDirs.end(), dirs.begin(), dirs.end());
        for (const auto& candidate : nvperfDirs) {
            if (isFile(fs::path(candidate) / kNvperfHostName)) {
                hit.nvperf = (fs::path(candidate) / kNvperfHostName).string();
                break;
            }
        }
        return hit;
    }
    return std::nullopt;
}

std::string missingMessage(
    const std::vector<std::string>& looked, bool askedLoader, const std::vector<std::string>& others)
{
    std::string message(kCuptiMissingMessage);
    message += fmt::format(" ({} not found in {}{})", kCuptiSoname, fmt::join(looked, ", "),
        askedLoader ? ", nor on the loader path" : "");
    if (!others.empty())
        message += fmt::format("; found {}, but capture needs CUPTI 13 (CUDA Toolkit 13)", fmt::join(others, ", "));
    return message;
}

} // namespace

std::vector<std::string> versionedCudaRoots(const std::string& parent)
{
    std::vector<std::pair<std::string, std::string>> found; // version, path
    std::error_code ec;
    for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
        const auto name = it->path().filename().string();
        std::error_code dirError;
        if (name.rfind("cuda-", 0) == 0 && name.size() > 5 && fs::is_directory(it->path(), dirError))
            found.emplace_back(name.substr(5), it->path().string());
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return newerVersion(a.first, b.first); });
    std::vector<std::string> roots;
    for (auto& [version, path] : found)
        roots.push_back(std::move(path));
    return roots;
}

CuptiSearch CuptiSearch::fromEnvironment()
{
    CuptiSearch search;
    const auto add = [&search](const std::string& root, std::string label) {
        if (root.empty() || std::find(search.roots.begin(), search.roots.end(), root) != search.roots.end())
            return;
        search.roots.push_back(root);
        search.rootLabels.push_back(std::move(label));
    };
    for (const char* name : { "CUDA_HOME", "CUDA_PATH" }) {
        const auto value = environment(name);
        add(value, value.empty() ? std::string() : fmt::format("{}={}", name, value));
    }
    add("/usr/local/cuda", {});
    for (const auto& root : versionedCudaRoots("/usr/local"))
        add(root, {});
    add("/opt/cuda", {});
    search.systemLibDirs.emplace_back(kMultiarchDir);
    search.loader = loaderLookup;
    return search;
}

core::Result<CuptiLocation> locateCupti(const CuptiSearch& search)
{
    std::vector<std::string> looked;
    std::vector<std::string> others;
    std::vector<std::string> ignoredSettings;
    CuptiLocation location;

    for (std::size_t i = 0; i < search.roots.size(); ++i) {
        const auto& root = search.roots[i];
        const std::string label = i < search.rootLabels.size() ? search.rootLabels[i] : std::string();
        looked.push_back(label.empty() ? root : label);
        if (auto hit = searchRoot(root)) {
            location.cuptiLibrary = std::move(hit->cupti);
            location.nvperfHostLibrary = std::move(hit->nvperf);
            location.foundIn = label.empty() ? root : label;
            break;
        }
        if (!label.empty())
            ignoredSettings.push_back(label);
        for (const auto& dir : libraryDirs(root)) {
            auto more = otherCuptiVersions(dir);
            others.insert(others.end(), more.begin(), more.end());
        }
    }
    if (location.cuptiLibrary.empty() && search.loader) {
        if (auto path = search.loader(std::string(kCuptiSoname))) {
            location.cuptiLibrary = *path;
            location.onLoaderPath = true;
            location.foundIn = "the loader path";
            const auto beside = fs::path(*path).parent_path() / kNvperfHostName;
            if (isFile(beside))
                location.nvperfHostLibrary = beside.string();
            else if (auto nvperf = search.loader(std::string(kNvperfHostName)))
                location.nvperfHostLibrary = *nvperf;
        }
    }
    for (const auto& dir : search.systemLibDirs) {
        if (!location.cuptiLibrary.empty())
            break;
        looked.push_back(dir);
        if (isFile(fs::path(dir) / kCuptiSoname)) {
            location.cuptiLibrary = (fs::path(dir) / kCuptiSoname).string();
            location.foundIn = dir;
            if (isFile(fs::path(dir) / kNvperfHostName))
                location.nvperfHostLibrary = (fs::path(dir) / kNvperfHostName).string();
        } else {
            auto more = otherCuptiVersions(dir);
            others.insert(others.end(), more.begin(), more.end());
        }
    }

    if (location.cuptiLibrary.empty())
        return core::makeError(
            core::ErrorCode::NotFound, missingMessage(looked, static_cast<bool>(search.loader), others));

    std::vector<std::string> warnings;
    if (!ignoredSettings.empty())
        warnings.push_back(fmt::format(
            "{} holds no {}; using {}", fmt::join(ignoredSettings, " and "), kCuptiSoname, location.cuptiLibrary));
    if (location.nvperfHostLibrary.empty())
        warnings.push_back(fmt::format("no {} beside {}: kernels can be traced, but no counters (roofline metrics) "
                                       "collected; reinstall the CUDA Toolkit's CUPTI component",
            kNvperfHostName, location.cuptiLibrary));
    location.warning = fmt::format("{}", fmt::join(warnings, "; "));
    return location;
}

std::string cuptiLibraryPath(const CuptiLocation& location, std::string_view current)
{
    std::vector<std::string> dirs;
    const auto addDirOf = [&dirs](const std::string& library) {
        if (library.empty())
            return;
        auto dir = fs::path(library).parent_path().string();
        if (!dir.empty() && std::find(dirs.begin(), dirs.end(), dir) == dirs.end())
            dirs.push_back(std::move(dir));
    };
    if (!location.onLoaderPath) {
        addDirOf(location.cuptiLibrary);
        addDirOf(location.nvperfHostLibrary);
    }
    // Keep the user's entries (in order), minus the ones already prepended.
    std::size_t start = 0;
    while (start <= current.size()) {
        const auto end = std::min(current.find(':', start), current.size());
        const std::string entry(current.substr(start, end - start));
        if (!entry.empty() && std::find(dirs.begin(), dirs.end(), entry) == dirs.end())
            dirs.push_back(entry);
        start = end + 1;
    }
    return fmt::format("{}", fmt::join(dirs, ":"));
}

} // namespace ridgeline::collectors

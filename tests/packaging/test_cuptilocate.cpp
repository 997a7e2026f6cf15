// SPDX-License-Identifier: MIT
// The CUPTI search against fake toolkit trees (empty files named like the libraries).
#include "ridgeline/collectors/launch/cuptilocate.h"
#include "tempdir.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;
using ridgeline::collectors::cuptiLibraryPath;
using ridgeline::collectors::CuptiSearch;
using ridgeline::collectors::kCuptiMissingMessage;
using ridgeline::collectors::locateCupti;
using ridgeline::collectors::versionedCudaRoots;
using ridgeline::testing::TempDir;

#if defined(__aarch64__)
constexpr const char* kTargetLib = "targets/sbsa-linux/lib";
#else
constexpr const char* kTargetLib = "targets/x86_64-linux/lib";
#endif

std::string touch(const fs::path& path)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path) << "fake";
    return path.string();
}

// Roots only: no loader, no system directories, so the real machine never leaks in.
CuptiSearch onlyRoots(std::vector<std::string> roots, std::vector<std::string> labels = {})
{
    CuptiSearch search;
    labels.resize(roots.size());
    search.roots = std::move(roots);
    search.rootLabels = std::move(labels);
    return search;
}

TEST(CuptiLocate, FindsLib64WithNvperfBeside)
{
    TempDir tmp;
    const auto cupti = touch(fs::path(tmp.path()) / "cuda/lib64/libcupti.so.13");
    const auto nvperf = touch(fs::path(tmp.path()) / "cuda/lib64/libnvperf_host.so");
    const auto found = locateCupti(onlyRoots({ tmp.file("cuda") }, { "CUDA_HOME=" + tmp.file("cuda") }));
    ASSERT_TRUE(found.ok()) << found.error().message;
    EXPECT_EQ(found.value().cuptiLibrary, cupti);
    EXPECT_EQ(found.value().nvperfHostLibrary, nvperf);
    EXPECT_EQ(found.value().foundIn, "CUDA_HOME=" + tmp.file("cuda"));
    EXPECT_FALSE(found.value().onLoaderPath);
    EXPECT_EQ(found.value().warning, "");
}

TEST(CuptiLocate, FindsTargetsAndExtrasLayouts)
{
    TempDir tmp;
    const auto targets = touch(fs::path(tmp.path()) / "a" / kTargetLib / "libcupti.so.13");
    touch(fs::path(tmp.path()) / "a" / kTargetLib / "libnvperf_host.so");
    const auto extras = touch(fs::path(tmp.path()) / "b/extras/CUPTI/lib64/libcupti.so.13");
    const auto extrasNvperf = touch(fs::path(tmp.path()) / "b/extras/CUPTI/lib64/libnvperf_host.so");

    const auto a = locateCupti(onlyRoots({ tmp.file("a") }));
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a.value().cuptiLibrary, targets);
    const auto b = locateCupti(onlyRoots({ tmp.file("b") }));
    ASSERT_TRUE(b.ok()) << b.error().message;
    EXPECT_EQ(b.value().cuptiLibrary, extras);
    EXPECT_EQ(b.value().nvperfHostLibrary, extrasNvperf);
    EXPECT_EQ(b.value().foundIn, tmp.file("b"));
}

TEST(CuptiLocate, FirstRootWinsAndAnEmptyCudaHomeIsReported)
{
    TempDir tmp;
    fs::create_directories(tmp.file("home/lib64")); // CUDA_HOME without CUPTI
    const auto first = touch(fs::path(tmp.path()) / "local/lib64/libcupti.so.13");
    touch(fs::path(tmp.path()) / "local/lib64/libnvperf_host.so");
    touch(fs::path(tmp.path()) / "opt/lib64/libcupti.so.13");
    const auto found = locateCupti(
        onlyRoots({ tmp.file("home"), tmp.file("local"), tmp.file("opt") }, { "CUDA_HOME=" + tmp.file("home") }));
    ASSERT_TRUE(found.ok()) << found.error().message;
    EXPECT_EQ(found.value().cuptiLibrary, first);
    EXPECT_NE(
        found.value().warning.find("CUDA_HOME=" + tmp.file("home") + " holds no libcupti.so.13"), std::string::npos)
        << found.value().warning;
}

TEST(CuptiLocate, MissingNvperfIsAWarningNotAnError)
{
    TempDir tmp;
    touch(fs::path(tmp.path()) / "cuda/lib64/libcupti.so.13");
    const auto found = locateCupti(onlyRoots({ tmp.file("cuda") }));
    ASSERT_TRUE(found.ok()) << found.error().message;
    EXPECT_EQ(found.value().nvperfHostLibrary, "");
    EXPECT_NE(found.value().warning.find("no libnvperf_host.so"), std::string::npos) << found.value().warning;
}

TEST(CuptiLocate, NothingFoundSaysWhatToInstallAndWhereItLooked)
{
    TempDir tmp;
    fs::create_directories(tmp.file("cuda/lib64"));
    touch(fs::path(tmp.path()) / "cuda/lib64/libnvperf_host.so"); // nvperf alone is not enough
    auto search = onlyRoots({ tmp.file("cuda"), tmp.file("absent") });
    search.systemLibDirs = { tmp.file("syslib") };
    int loaderCalls = 0;
    search.loader = [&loaderCalls](const std::string&) -> std::optional<std::string> {
        ++loaderCalls;
        return std::nullopt;
    };
    const auto found = locateCupti(search);
    ASSERT_TRUE(found.hasError());
    EXPECT_EQ(found.error().code, ridgeline::core::ErrorCode::NotFound);
    const auto& message = found.error().message;
    EXPECT_EQ(message.rfind(kCuptiMissingMessage, 0), 0U) << message;
    EXPECT_NE(message.find(tmp.file("cuda")), std::string::npos) << message;
    EXPECT_NE(message.find(tmp.file("absent")), std::string::npos) << message;
    EXPECT_NE(message.find(tmp.file("syslib")), std::string::npos) << message;
    EXPECT_NE(message.find("loader path"), std::string::npos) << message;
    EXPECT_EQ(loaderCalls, 1);
}

TEST(CuptiLocate, AnotherCuptiMajorIsNamedInTheError)
{
    TempDir tmp;
    const auto old = touch(fs::path(tmp.path()) / "cuda-12/lib64/libcupti.so.12");
    fs::create_symlink("libcupti.so.12", tmp.file("cuda-12/lib64/libcupti.so")); // the -dev link
    const auto found = locateCupti(onlyRoots({ tmp.file("cuda-12") }));
    ASSERT_TRUE(found.hasError());
    EXPECT_NE(found.error().message.find("found " + old + ", but capture needs CUPTI 13"), std::string::npos)
        << found.error().message;
}

TEST(CuptiLocate, DanglingSymlinkIsNoLibrary)
{
    TempDir tmp;
    fs::create_directories(tmp.file("cuda/lib64"));
    fs::create_symlink("libcupti.so.13.0.0", tmp.file("cuda/lib64/libcupti.so.13"));
    EXPECT_TRUE(locateCupti(onlyRoots({ tmp.file("cuda") })).hasError());
    touch(fs::path(tmp.path()) / "cuda/lib64/libcupti.so.13.0.0");
    EXPECT_TRUE(locateCupti(onlyRoots({ tmp.file("cuda") })).ok());
}

TEST(CuptiLocate, LoaderIsAskedOnlyAfterTheRoots)
{
    TempDir tmp;
    const auto loaded = touch(fs::path(tmp.path()) / "ld/libcupti.so.13");
    const auto nvperf = touch(fs::path(tmp.path()) / "ld/libnvperf_host.so");
    std::vector<std::string> asked;
    auto search = onlyRoots({ tmp.file("none") });
    search.loader = [&](const std::string& soname) -> std::optional<std::string> {
        asked.push_back(soname);
        return soname == "libcupti.so.13" ? std::optional<std::string>(loaded) : std::nullopt;
    };
    auto found = locateCupti(search);
    ASSERT_TRUE(found.ok()) << found.error().message;
    EXPECT_TRUE(found.value().onLoaderPath);
    EXPECT_EQ(found.value().cuptiLibrary, loaded);
    EXPECT_EQ(found.value().nvperfHostLibrary, nvperf);
    EXPECT_EQ(found.value().foundIn, "the loader path");
    EXPECT_EQ(asked, std::vector<std::string> { "libcupti.so.13" });
    // Found by the loader: the target's LD_LIBRARY_PATH stays as it was.
    EXPECT_EQ(cuptiLibraryPath(found.value(), "/x:/y"), "/x:/y");

    asked.clear();
    touch(fs::path(tmp.path()) / "none/lib/libcupti.so.13");
    found = locateCupti(search);
    ASSERT_TRUE(found.ok());
    EXPECT_FALSE(found.value().onLoaderPath);
    EXPECT_TRUE(asked.empty());
}

TEST(CuptiLocate, SystemDirectoryIsTheLastResort)
{
    TempDir tmp;
    const auto cupti = touch(fs::path(tmp.path()) / "multiarch/libcupti.so.13");
    auto search = onlyRoots({ tmp.file("none") });
    search.systemLibDirs = { tmp.file("empty"), tmp.file("multiarch") };
    const auto found = locateCupti(search);
    ASSERT_TRUE(found.ok()) << found.error().message;
    EXPECT_EQ(found.value().cuptiLibrary, cupti);
    EXPECT_EQ(found.value().foundIn, tmp.file("multiarch"));
}

TEST(CuptiLocate, LibraryPathPrependsBothDirectoriesOnce)
{
    ridgeline::collectors::CuptiLocation location;
    location.cuptiLibrary = "/t/cuda/lib64/libcupti.so.13";
    location.nvperfHostLibrary = "/t/cuda/lib64/libnvperf_host.so";
    EXPECT_EQ(cuptiLibraryPath(location, ""), "/t/cuda/lib64");
    EXPECT_EQ(cuptiLibraryPath(location, "/a::/t/cuda/lib64:/b"), "/t/cuda/lib64:/a:/b");
    location.nvperfHostLibrary = "/t/nvperf/libnvperf_host.so";
    EXPECT_EQ(cuptiLibraryPath(location, "/a"), "/t/cuda/lib64:/t/nvperf:/a");
    location.nvperfHostLibrary.clear();
    EXPECT_EQ(cuptiLibraryPath(location, "/a"), "/t/cuda/lib64:/a");
}

TEST(CuptiLocate, VersionedRootsNewestFirst)
{
    TempDir tmp;
    for (const char* name : { "cuda-11.8", "cuda-12.10", "cuda-12.4", "cuda-13.0", "cuda-12", "cudnn", "cuda-" })
        fs::create_directories(tmp.file(name));
    touch(tmp.file("cuda-99.0")); // a file, not a toolkit
    const std::vector<std::string> expected { tmp.file("cuda-13.0"), tmp.file("cuda-12.10"), tmp.file("cuda-12.4"),
        tmp.file("cuda-12"), tmp.file("cuda-11.8") };
    EXPECT_EQ(versionedCudaRoots(tmp.path()), expected);
    EXPECT_TRUE(versionedCudaRoots(tmp.file("does-not-exist")).empty());
}

TEST(CuptiLocate, EnvironmentRootsComeFirst)
{
    TempDir tmp;
    const char* saved = std::getenv("CUDA_HOME");
    const std::string savedValue = saved == nullptr ? "" : saved;
    setenv("CUDA_HOME", tmp.path().c_str(), 1);
    auto search = CuptiSearch::fromEnvironment();
    ASSERT_FALSE(search.roots.empty());
    EXPECT_EQ(search.roots.front(), tmp.path());
    EXPECT_EQ(search.rootLabels.front(), "CUDA_HOME=" + tmp.path());
    EXPECT_NE(std::find(search.roots.begin(), search.roots.end(), "/usr/local/cuda"), search.roots.end());
    EXPECT_NE(std::find(search.roots.begin(), search.roots.end(), "/opt/cuda"), search.roots.end());
    unsetenv("CUDA_HOME");
    search = CuptiSearch::fromEnvironment();
    EXPECT_EQ(std::find(search.roots.begin(), search.roots.end(), tmp.path()), search.roots.end());
    if (saved != nullptr)
        setenv("CUDA_HOME", savedValue.c_str(), 1);
}

TEST(CuptiLocate, RealLoaderAnswersWithAnAbsolutePath)
{
    const auto loader = CuptiSearch::fromEnvironment().loader;
    ASSERT_TRUE(loader);
    const auto zlib = loader("libz.so.1"); // linked by the collectors, so always present
    ASSERT_TRUE(zlib.has_value());
    EXPECT_EQ(zlib->front(), '/');
    EXPECT_NE(zlib->find("libz.so.1"), std::string::npos) << *zlib;
    EXPECT_FALSE(loader("libridgeline-no-such-library.so.7").has_value());
}

} // namespace

// On a machine with the CUDA Toolkit in /usr/local/cuda (the development machine), the default
// search finds that toolkit's libraries; elsewhere the search must say what to install.
TEST(CuptiLocate, DefaultSearchOnThisMachine)
{
    const char* cudaHome = std::getenv("CUDA_HOME");
    const char* cudaPath = std::getenv("CUDA_PATH");
    const auto found = locateCupti();
    const fs::path toolkit = "/usr/local/cuda/lib64/libcupti.so.13";
    if ((cudaHome == nullptr || *cudaHome == '\0') && (cudaPath == nullptr || *cudaPath == '\0')
        && fs::is_regular_file(toolkit)) {
        ASSERT_TRUE(found.ok()) << found.error().message;
        EXPECT_EQ(found.value().cuptiLibrary, toolkit.string());
        EXPECT_EQ(found.value().foundIn, "/usr/local/cuda");
        if (fs::is_regular_file("/usr/local/cuda/lib64/libnvperf_host.so")) {
            EXPECT_EQ(found.value().nvperfHostLibrary, "/usr/local/cuda/lib64/libnvperf_host.so");
        }
    } else if (found.hasError()) {
        EXPECT_EQ(found.error().message.rfind(kCuptiMissingMessage, 0), 0U) << found.error().message;
    } else {
        EXPECT_TRUE(fs::is_regular_file(found.value().cuptiLibrary)) << found.value().cuptiLibrary;
    }
}

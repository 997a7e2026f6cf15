// SPDX-License-Identifier: MIT
#pragma once
// Finds the CUDA Toolkit's CUPTI (libcupti) and libnvperf_host.so at run time. Capture needs
// them; viewing and importing never do, so nothing in the package depends on CUDA and the
// launcher asks this before it starts a target.
//
// Search order (first hit wins): $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, /usr/local/cuda-*
// (newest version first), /opt/cuda, then the dynamic loader (dlopen by soname: ld.so.cache,
// LD_LIBRARY_PATH), then the multiarch system directory (/usr/lib/x86_64-linux-gnu). In a
// toolkit root the libraries are looked for in lib64, lib, targets/<arch>-linux/lib and
// extras/CUPTI/lib64.
//
// The launcher uses it like this (collectors/launch):
//   auto found = locateCupti();
//   if (found.hasError()) -> print found.error().message, exit (no target is started)
//   if (!found.value().warning.empty()) -> print it once ("ridgeline: ...")
//   env LD_LIBRARY_PATH = cuptiLibraryPath(found.value(), getenv("LD_LIBRARY_PATH"))
// so that the injected library (and libcupti, which loads libnvperf_host.so by name) resolve
// them in the target even when the toolkit is not on the default loader path.
#include "ridgeline/core/base/result.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::collectors {

// The CUPTI major version capture is built for (CUDA 13 headers): libcupti.so.13.
inline constexpr std::string_view kCuptiSoname = "libcupti.so.13";
inline constexpr std::string_view kNvperfHostName = "libnvperf_host.so";

// Where to look. fromEnvironment() describes the real machine; tests build their own trees.
struct CuptiSearch {
    std::vector<std::string> roots; // toolkit roots, in order (env vars, /usr/local/cuda, ...)
    std::vector<std::string> systemLibDirs; // directories holding the libraries themselves
    // Asks the dynamic loader for a soname: the absolute path it would load, or nothing.
    std::function<std::optional<std::string>(const std::string& soname)> loader;
    // Human-readable note per root that came from the environment, e.g. "CUDA_HOME=/opt/x".
    std::vector<std::string> rootLabels; // parallel to roots; empty label = a default place

    static CuptiSearch fromEnvironment();
};

struct CuptiLocation {
    std::string cuptiLibrary; // absolute path of libcupti.so.13 (or libcupti.so)
    std::string nvperfHostLibrary; // absolute path of libnvperf_host.so; empty when missing
    std::string foundIn; // where it came from: "CUDA_HOME=/x", "/usr/local/cuda", "the loader path"
    bool onLoaderPath = false; // the default loader finds it: no LD_LIBRARY_PATH needed
    std::string warning; // a non-fatal sentence for the user (e.g. CUDA_HOME ignored, no nvperf)
};

// The message every "not found" answer starts with.
inline constexpr std::string_view kCuptiMissingMessage
    = "capture needs the CUDA Toolkit (CUPTI): install it or set CUDA_HOME";

core::Result<CuptiLocation> locateCupti(const CuptiSearch& search = CuptiSearch::fromEnvironment());

// The LD_LIBRARY_PATH to give the target: the directories of libcupti and libnvperf_host.so
// prepended to `current` (unless the loader finds them already), without duplicates.
std::string cuptiLibraryPath(const CuptiLocation& location, std::string_view current);

// The toolkit roots under `parent` named cuda-<version>, newest version first (cuda-13.0
// before cuda-12.10 before cuda-12.4).
std::vector<std::string> versionedCudaRoots(const std::string& parent);

} // namespace ridgeline::collectors

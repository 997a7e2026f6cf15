// SPDX-License-Identifier: MIT
// libridgeline-inject.so of a build made without CUPTI (no CUDA toolkit found): the entry points
// exist so that the launcher works, and say plainly that nothing can be recorded.
#include <cstdint>
#include <cstdio>

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void)
{
    std::fprintf(stderr,
        "ridgeline: this Ridgeline was built without CUPTI (no CUDA toolkit was found), so no GPU "
        "activity can be recorded.\n");
    return 0;
}

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    const void* (* /*getExportTable*/)(std::uint32_t))
{
    return 0;
}

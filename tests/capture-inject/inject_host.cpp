// SPDX-License-Identifier: MIT
// An ordinary program (no CUDA) that loads the injection library the way the CUDA driver does and
// calls its entry point: the library must answer 0 and say why, never crash.
#include <cstdio>
#include <dlfcn.h>

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: ridgeline_inject_host LIBRARY\n");
        return 2;
    }
    void* library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        std::fprintf(stderr, "dlopen failed: %s\n", dlerror());
        return 3;
    }
    using Entry = int (*)();
    auto entry = reinterpret_cast<Entry>(dlsym(library, "InitializeInjection"));
    if (!entry) {
        std::fprintf(stderr, "InitializeInjection not exported\n");
        return 4;
    }
    const int first = entry();
    const int second = entry(); // the driver may call again: still harmless
    std::printf("InitializeInjection returned %d then %d\n", first, second);
    return 0;
}

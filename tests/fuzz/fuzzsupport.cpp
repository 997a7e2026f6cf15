// SPDX-License-Identifier: MIT
// Linked into every fuzz target and replay program (tests/fuzz/CMakeLists.txt).
#include "fuzzsupport.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <malloc.h>
#include <sqlite3.h>

// glibc's allocator under its own names, which AddressSanitizer does not intercept.
extern "C" void* __libc_malloc(std::size_t size);
extern "C" void* __libc_realloc(void* pointer, std::size_t size);
extern "C" void __libc_free(void* pointer);

namespace {

// SQLite's own memory bypasses the sanitizer's allocator. SQLite is not instrumented, so its
// allocations gain nothing from ASan's redzones and quarantine, and they cost most of the time of
// an input: a session is a few hundred small allocations per statement prepared. Each block
// carries its size in front of it (sqlite3_mem_methods::xSize), as SQLite's own mem1.c does.
constexpr std::size_t kHeader = 16; // keeps the 16-byte alignment malloc gives

void* allocate(int size)
{
    auto* block = static_cast<unsigned char*>(__libc_malloc(static_cast<std::size_t>(size) + kHeader));
    if (block == nullptr)
        return nullptr;
    std::memcpy(block, &size, sizeof size);
    return block + kHeader;
}

void release(void* pointer)
{
    if (pointer != nullptr)
        __libc_free(static_cast<unsigned char*>(pointer) - kHeader);
}

int sizeOf(void* pointer)
{
    int size = 0;
    if (pointer != nullptr)
        std::memcpy(&size, static_cast<unsigned char*>(pointer) - kHeader, sizeof size);
    return size;
}

void* reallocate(void* pointer, int size)
{
    if (pointer == nullptr)
        return allocate(size);
    auto* block = static_cast<unsigned char*>(
        __libc_realloc(static_cast<unsigned char*>(pointer) - kHeader, static_cast<std::size_t>(size) + kHeader));
    if (block == nullptr)
        return nullptr;
    std::memcpy(block, &size, sizeof size);
    return block + kHeader;
}

int roundUp(int size)
{
    return (size + 7) & ~7;
}

int initialise(void*)
{
    return SQLITE_OK;
}

void shutDown(void*) { }

// Before main(), so before SQLite initialises itself.
const bool kConfigured = [] {
    static const sqlite3_mem_methods methods { allocate, release, reallocate, sizeOf, roundUp, initialise, shutDown,
        nullptr };
    // glibc hands blocks of 128 KiB and more out as their own mappings, and gives the top of the
    // heap back to the system when it is freed: every input's database images (the input's copy,
    // the session's pages) then cost fresh, zeroed pages, a third of an input's time. Here they stay.
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    // One thread at a time uses a connection here (the importers' helper threads never touch
    // SQLite): no mutex per connection, and no memory statistics (which take a global one).
    return sqlite3_config(SQLITE_CONFIG_MULTITHREAD) == SQLITE_OK
        && sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK
        && sqlite3_config(SQLITE_CONFIG_MALLOC, &methods) == SQLITE_OK;
}();

} // namespace

bool ridgeline::fuzz::replaying = false;

std::vector<std::string> ridgeline::fuzz::baseImages(const std::vector<std::string>& dirs)
{
    namespace fs = std::filesystem;
    std::vector<fs::path> paths;
    for (const auto& dir : dirs) {
        const fs::path root = fs::path(dir).is_absolute() ? fs::path(dir) : fs::path(RIDGELINE_SOURCE_DIR) / dir;
        std::error_code ec;
        if (fs::is_regular_file(root, ec))
            paths.push_back(root);
        for (const auto& entry : fs::directory_iterator(root, ec))
            if (entry.is_regular_file())
                paths.push_back(entry.path());
    }
    std::sort(paths.begin(), paths.end());
    std::vector<std::string> images;
    for (const auto& path : paths) {
        std::ifstream in(path, std::ios::binary);
        images.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    if (images.empty())
        fail("no databases to edit",
            "none found under the source tree's " + (dirs.empty() ? std::string() : dirs.front()));
    return images;
}

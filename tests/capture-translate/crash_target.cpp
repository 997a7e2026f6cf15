// SPDX-License-Identifier: MIT
// A program that dies mid-capture the way a CUDA program under the injection library does, with
// real CUDA 13 record structs: it writes its part file (what CUPTI's buffers delivered before the
// crash), opens the crash file at start-up, installs the injection library's fatal-signal handler
// with a flush that writes the records CUPTI would still hold (crashlog.h, write(2) only), then
// segfaults or aborts. No GPU: the records are made here (records.h), not by CUPTI.
//   crash_target segv|abort BEFORE AFTER
#include "crashlog.h"
#include "fatalsignals.h"
#include "partwriter.h"
#include "records.h"

#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

using namespace ridgeline;

namespace {

constexpr std::size_t kMaxAfter = 256;
std::array<CUpti_ActivityKernel10, kMaxAfter> g_after {}; // built before the crash: no malloc in the handler
std::size_t g_afterCount = 0;
int g_crashFd = -1;

void flushInHandler(int signal)
{
    for (std::size_t i = 0; i < g_afterCount; ++i)
        (void)inject::crashWriteRecord(g_crashFd, testing::asActivity(g_after[i]), sizeof g_after[i]);
    (void)inject::crashWriteSignal(g_crashFd, signal);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 4)
        return 2;
    const std::string mode = argv[1];
    const int before = std::atoi(argv[2]);
    g_afterCount = std::min<std::size_t>(kMaxAfter, static_cast<std::size_t>(std::atoi(argv[3])));
    const char* dir = std::getenv("RIDGELINE_PART_DIR");
    if (dir == nullptr)
        return 3;
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    const long pid = getpid();

    inject::PartIdentity identity;
    identity.pid = pid;
    identity.host = host;
    identity.command = "crash_target";
    auto part = inject::PartWriter::create(
        std::string(dir) + "/" + host + "-" + std::to_string(pid) + ".part.ridge", identity);
    if (part.hasError()) {
        std::fprintf(stderr, "crash_target: %s\n", part.error().message.c_str());
        return 4;
    }
    inject::ActivityTranslator translator(part.value().processId(), {});
    inject::TranslatedBatch batch;
    const auto device = testing::deviceRecord(0, "NVIDIA H100 80GB HBM3");
    translator.translate(*testing::asActivity(device), batch);
    for (int i = 0; i < before; ++i) {
        const auto k = testing::kernelRecord(static_cast<std::uint32_t>(i + 1), "_Z6beforei",
            1000u * static_cast<std::uint64_t>(i), 1000u * static_cast<std::uint64_t>(i) + 500);
        translator.translate(*testing::asActivity(k), batch);
    }
    if (part.value().write(batch).hasError())
        return 5;

    g_crashFd = inject::openCrashFile(inject::crashFilePath(dir, host, pid));
    if (g_crashFd < 0)
        return 6;
    for (std::size_t i = 0; i < g_afterCount; ++i) {
        const auto start = 1000u * static_cast<std::uint64_t>(static_cast<std::size_t>(before) + i);
        g_after[i] = testing::kernelRecord(
            static_cast<std::uint32_t>(static_cast<std::size_t>(before) + i + 1), "_Z5afteri", start, start + 500);
    }
    inject::installFatalSignalHandlers(flushInHandler);
    if (mode == "segv") {
        // A real fault: a store to a page mapped with no access (not to nullptr, which UBSan's null
        // check would report and exit on before the signal is raised).
        void* page = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (page == MAP_FAILED)
            return 8;
        *static_cast<volatile int*>(page) = 1;
    } else if (mode == "abort") {
        std::abort();
    }
    return 7;
}

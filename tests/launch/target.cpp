// SPDX-License-Identifier: MIT
// The program the launcher tests capture: an ordinary process (no GPU) that exits, crashes,
// forks, floods stdout, echoes stdin, waits for signals, and writes part files the way the
// injection library does (core::SessionWriter, atomic = false, one batch per "buffer").
//   launch_target exit N | signal N | spew MIB | cat | touch FILE | wait-signal READY DONE
//   launch_target part K finish|crash|hang [PIDFILE] | fork-parts K FILE | part-error K
//   launch_target fill-disk K FILE
#include "kernelbatches.h"
#include "ridgeline/core/store/sessionwriter.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using namespace ridgeline;

volatile std::sig_atomic_t g_signal = 0;

void onSignal(int sig)
{
    g_signal = sig;
}

std::string partPath()
{
    const char* dir = std::getenv("RIDGELINE_PART_DIR");
    if (dir == nullptr) {
        std::fprintf(stderr, "launch_target: RIDGELINE_PART_DIR is not set\n");
        std::exit(90);
    }
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    return std::string(dir) + "/" + host + "-" + std::to_string(getpid()) + ".part.ridge";
}

// Writes `kernels` kernels in batches of 100 (like CUPTI buffers) into this process's part file.
core::SessionWriter writePart(int kernels, const char* error = nullptr)
{
    core::WriterOptions options;
    options.atomic = false;
    auto created = core::SessionWriter::create(partPath(), options);
    if (created.hasError()) {
        std::fprintf(stderr, "launch_target: %s\n", created.error().message.c_str());
        std::exit(91);
    }
    auto writer = std::move(created).value();
    auto ok = [](const auto& r) {
        if (r.hasError()) {
            std::fprintf(stderr, "launch_target: %s\n", r.error().message.c_str());
            std::exit(92);
        }
    };
    ok(writer.setMeta("capture.pid", std::to_string(getpid())));
    ok(writer.setMeta("capture.dropped_records", "0"));
    if (error != nullptr)
        ok(writer.setMeta("capture.error", error));
    core::Device device;
    device.id = 0;
    device.name = "Test GPU";
    device.uuid = "GPU-00112233-4455-6677-8899-aabbccddeeff";
    ok(writer.addDevice(device));
    core::Process process;
    process.pid = getpid();
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    process.host = host;
    process.command = "launch_target";
    auto processId = writer.addProcess(process);
    ok(processId);
    auto name = writer.internKernelName("_Z10testKernelv");
    ok(name);
    ok(ridgeline::testing::writeKernelBatches(writer, processId.value(), name.value(),
        { .count = kernels, .batchSize = 100, .spacingNs = 1000, .durationNs = 500, .streamId = 7 }));
    return writer;
}

void finish(core::SessionWriter& writer)
{
    if (auto done = writer.finish(core::SessionStatus::Complete); done.hasError()) {
        std::fprintf(stderr, "launch_target: %s\n", done.error().message.c_str());
        std::exit(93);
    }
}

void writeFile(const std::string& path, const std::string& text)
{
    std::ofstream(path) << text;
}

} // namespace

int main(int argc, char** argv)
{
    // The tests limit the launcher's file size (a "full disk"); the program itself is not limited.
    rlimit limit {};
    if (getrlimit(RLIMIT_FSIZE, &limit) == 0) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    const std::vector<std::string> args(argv + 1, argv + argc);
    const std::string mode = args.empty() ? "" : args[0];
    auto arg = [&](std::size_t i) { return i < args.size() ? args[i] : std::string(); };
    if (mode == "exit")
        return std::atoi(arg(1).c_str());
    if (mode == "signal") {
        const int sig = std::atoi(arg(1).c_str());
        std::signal(sig, SIG_DFL);
        std::raise(sig);
        return 99;
    }
    if (mode == "spew") {
        const std::string block(1 << 20, 'x');
        for (int i = 0; i < std::atoi(arg(1).c_str()); ++i)
            std::fwrite(block.data(), 1, block.size(), stdout);
        return 0;
    }
    if (mode == "cat") {
        char buffer[4096];
        std::size_t n = 0;
        while ((n = std::fread(buffer, 1, sizeof buffer, stdin)) > 0)
            std::fwrite(buffer, 1, n, stdout);
        return 0;
    }
    if (mode == "touch") {
        writeFile(arg(1), "ran");
        return 0;
    }
    if (mode == "wait-signal") {
        std::signal(SIGTERM, onSignal);
        writeFile(arg(1), "ready");
        for (int i = 0; i < 300 && g_signal == 0; ++i)
            usleep(20'000);
        writeFile(arg(2), "signal " + std::to_string(g_signal));
        return g_signal == SIGTERM ? 42 : 1;
    }
    if (mode == "part" || mode == "part-error") {
        auto writer = writePart(std::atoi(arg(1).c_str()),
            mode == "part-error" ? "Counters are restricted to admin users on this machine." : nullptr);
        const std::string how = mode == "part-error" ? "finish" : arg(2);
        if (how == "finish") {
            finish(writer);
            return 0;
        }
        if (how == "crash") {
            std::signal(SIGSEGV, SIG_DFL);
            std::raise(SIGSEGV); // never finished: a live WAL part
        }
        if (how == "hang") {
            writeFile(arg(3), std::to_string(getpid()));
            pause(); // until the test kills it
        }
        return 0;
    }
    if (mode == "fork-parts") {
        const pid_t child = fork();
        if (child == 0) {
            sleep(1); // the parent has exited by now
            auto writer = writePart(std::atoi(arg(1).c_str()));
            finish(writer);
            writeFile(arg(2), "child done");
            return 0;
        }
        auto writer = writePart(std::atoi(arg(1).c_str()));
        finish(writer);
        return 0; // without waiting for the child
    }
    if (mode == "fill-disk") {
        auto writer = writePart(std::atoi(arg(1).c_str()));
        finish(writer);
        std::FILE* filler = std::fopen(arg(2).c_str(), "wb");
        const std::string block(1 << 16, 'f');
        while (filler != nullptr && std::fwrite(block.data(), 1, block.size(), filler) == block.size()
            && std::fflush(filler) == 0) { }
        if (filler != nullptr)
            std::fclose(filler);
        return 0;
    }
    std::fprintf(stderr, "launch_target: unknown mode '%s'\n", mode.c_str());
    return 2;
}

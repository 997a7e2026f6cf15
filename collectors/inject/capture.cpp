// SPDX-License-Identifier: MIT
#include "capture.h"

#include "activitybuffers.h"
#include "countercollector.h"
#include "crashlog.h"
#include "fatalsignals.h"
#include "injectionconfig.h"
#include "openranges.h"
#include "partwriter.h"
#include "periodicflush.h"
#include "ridgeline/core/base/hostname.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cupti.h>
#include <dlfcn.h>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <set>
#include <unistd.h>

// Exported by libcupti.so.13 and documented in the CUPTI guide, declared by no header.
extern "C" CUptiResult CUPTIAPI cuptiNvtxInitialize2(void* pfnGetExportTable);

namespace ridgeline::inject {

namespace {

struct Capture {
    std::mutex mutex; // part, translator, printed
    std::optional<PartWriter> part;
    std::optional<ActivityTranslator> translator;
    InjectionConfig config;
    std::unique_ptr<CounterCollector> counters;
    NcclCallRegistry nccl; // NCCL calls from their NVTX payloads, for the comm_ops rows (ncclcalls.h)
    std::string host;
    pid_t owner = 0;
    std::set<std::string> printed;
    bool droppedPrinted = false;
    std::atomic<bool> finished { false };
    std::atomic<bool> inSignal { false };
    PeriodicFlush periodicFlush; // cuptiActivityFlushAll(0) every RIDGELINE_FLUSH_PERIOD_MS
    std::string openNvtx; // the part's capture.open_nvtx as last written
    // The crash file (crashlog.h), opened at start-up: all the signal handler writes to.
    int crashFd = -1;
    std::string crashPath;
};

// Never destroyed: CUPTI's threads and atexit handlers may still reach it while statics die.
Capture* g_capture = nullptr;
std::atomic<bool> g_started { false };

std::int64_t now()
{
    std::uint64_t timestamp = 0;
    (void)cuptiGetTimestamp(&timestamp);
    return static_cast<std::int64_t>(timestamp);
}

std::string commandLine()
{
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    while (!raw.empty() && raw.back() == '\0')
        raw.pop_back();
    for (char& c : raw) {
        if (c == '\0')
            c = ' ';
    }
    return raw;
}

bool ownedHere(const Capture* capture)
{
    return capture && capture->owner == getpid();
}

// One stderr line per distinct sentence; caller holds the mutex.
void printOnce(Capture& capture, const std::string& sentence)
{
    if (capture.printed.insert(sentence).second)
        std::fprintf(stderr, "ridgeline: %s\n", sentence.c_str());
}

// Caller holds the mutex.
void report(Capture& capture, const std::string& sentence, bool fatal)
{
    printOnce(capture, sentence);
    if (capture.part) {
        auto stored = fatal ? capture.part->addError(sentence) : capture.part->addWarning(sentence);
        (void)stored; // the line on stderr is all that can be done
    }
}

void reportLocked(Capture& capture, const std::string& sentence, bool fatal)
{
    std::lock_guard lock(capture.mutex);
    report(capture, sentence, fatal);
}

void noteDropped(Capture& capture, std::uint64_t dropped)
{
    if (dropped == 0 || !capture.part)
        return;
    (void)capture.part->addDropped(dropped);
    if (!capture.droppedPrinted) {
        capture.droppedPrinted = true;
        std::fprintf(stderr,
            "ridgeline: CUPTI dropped %llu activity records (its buffers were full); the count is kept in the "
            "session (capture.dropped_records).\n",
            static_cast<unsigned long long>(dropped));
    }
}

// Async-signal-safe: walks the buffer with CUPTI's iterator (pointer arithmetic) and writes each
// record's bytes, up to the next record, as one frame.
void writeRawRecords(int fd, std::uint8_t* buffer, std::size_t validSize) noexcept
{
    if (fd < 0 || !buffer)
        return;
    CUpti_Activity* record = nullptr;
    const CUpti_Activity* previous = nullptr;
    auto bytesOf = [](const CUpti_Activity* r) { return reinterpret_cast<const std::uint8_t*>(r); };
    while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
        if (previous)
            (void)crashWriteRecord(fd, previous, static_cast<std::uint32_t>(bytesOf(record) - bytesOf(previous)));
        previous = record;
    }
    if (previous)
        (void)crashWriteRecord(fd, previous, static_cast<std::uint32_t>(buffer + validSize - bytesOf(previous)));
}

void CUPTIAPI onBuffer(
    CUcontext context, std::uint32_t streamId, std::uint8_t* buffer, std::size_t /*size*/, std::size_t validSize)
{
    Capture* capture = g_capture;
    if (!ownedHere(capture)) {
        releaseBuffer(buffer);
        return;
    }
    // In the fatal-signal handler: each record goes to the crash file as it is (write(2) only: no
    // malloc, no lock, no SQLite). The buffer is not freed (free is not async-signal-safe).
    if (capture->inSignal.load()) {
        writeRawRecords(capture->crashFd, buffer, validSize);
        return;
    }
    const auto records = bufferRecords(buffer, validSize);
    std::unique_lock lock(capture->mutex);
    if (!capture->part || !capture->translator) {
        releaseBuffer(buffer);
        return;
    }
    TranslatedBatch batch;
    try {
        capture->translator->translate(records, batch);
    } catch (...) {
        batch = {};
        batch.records = records.size();
        report(*capture, "translating CUPTI records failed (out of memory?); one buffer of records is lost.", false);
        noteDropped(*capture, records.size());
    }
    releaseBuffer(buffer);
    for (auto& device : batch.devices)
        device.host = capture->host;
    if (auto written = capture->part->write(batch); written.hasError()) {
        report(*capture, "writing the part file failed (" + written.error().message + "); records are lost.", false);
        noteDropped(*capture, batch.records);
    }
    if (batch.unknownRecords > 0)
        (void)capture->part->addWarning(
            "CUPTI delivered records of kinds Ridgeline does not record; they were skipped.");
    // The ranges still open, for the crash path: their ends may come from the crash file.
    if (std::string open = encodeOpenRanges(capture->translator->openRangeList()); open != capture->openNvtx) {
        (void)capture->part->setMeta(kOpenNvtxMeta, open);
        capture->openNvtx = std::move(open);
    }
    noteDropped(*capture, droppedRecords(context, streamId));
}

void finishCapture()
{
    Capture* capture = g_capture;
    if (!ownedHere(capture) || capture->finished.exchange(true))
        return;
    if (capture->counters)
        capture->counters->stop();
    capture->periodicFlush.stop();
    (void)cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    std::lock_guard lock(capture->mutex);
    if (!capture->part)
        return;
    noteDropped(*capture, droppedRecords(nullptr, 0));
    if (capture->part->dropped() > 0)
        std::fprintf(stderr, "ridgeline: %llu activity records were dropped by CUPTI in process %d.\n",
            static_cast<unsigned long long>(capture->part->dropped()), static_cast<int>(capture->owner));
    if (const auto orphans = capture->part->orphanCounters(); orphans > 0)
        report(*capture,
            std::to_string(orphans)
                + " kernels were profiled whose activity record never arrived; their counters "
                  "are not in the session.",
            false);
    if (const auto orphans = capture->part->orphanGraphCounters(); orphans > 0)
        report(*capture,
            std::to_string(orphans)
                + " CUDA graph launches were profiled whose kernel records never arrived; their counters are not "
                  "in the session.",
            false);
    if (capture->translator && capture->translator->openRanges() > 0)
        report(*capture,
            std::to_string(capture->translator->openRanges())
                + " NVTX ranges were still open when the process ended; they are not in the session.",
            false);
    if (auto done = capture->part->finish(now()); done.hasError())
        printOnce(*capture, "finishing the part file failed: " + done.error().message);
    capture->part.reset();
    // No crash: the crash file holds only its magic.
    if (capture->crashFd >= 0) {
        ::close(capture->crashFd);
        capture->crashFd = -1;
        ::unlink(capture->crashPath.c_str());
    }
}

void atExit()
{
    finishCapture();
}

// Async-signal-safe apart from CUPTI's own flush, the only way to get the records it holds:
// onBuffer then writes them to the crash file, and the signal follows. The part file is not
// touched (SQLite is not async-signal-safe); the launcher recovers the crash file into it.
void onFatalSignal(int signal)
{
    Capture* capture = g_capture;
    if (!ownedHere(capture) || capture->finished.load() || capture->crashFd < 0 || capture->inSignal.exchange(true))
        return;
    enterSignalPath(); // CUPTI may ask for a buffer while it flushes: the reserved one, no malloc
    (void)cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    (void)crashWriteSignal(capture->crashFd, signal);
}

void inForkedChild()
{
    // The child shares the parent's part file descriptor and CUPTI state: it must not touch either.
    // A child that execs a CUDA program starts a capture of its own with its own part.
    if (g_capture)
        g_capture->owner = -1;
}

int fail(const std::string& sentence)
{
    std::fprintf(stderr, "ridgeline: %s\n", sentence.c_str());
    return 0;
}

// The capture of this process with its part file and crash file open; null (and said why) when
// there is nowhere to write.
Capture* openCapture()
{
    auto* capture = new Capture();
    capture->owner = getpid();
    capture->host = core::hostName();
    if (capture->host.empty())
        capture->host = "localhost";
    capture->config = readInjectionConfig([](const char* name) { return std::getenv(name); });
    const InjectionConfig& config = capture->config;
    if (config.partDir.empty()) {
        fail("RIDGELINE_PART_DIR is not set, so there is nowhere to write: start the program with "
             "`ridgeline capture -- PROGRAM`; nothing is recorded.");
        return nullptr;
    }
    PartIdentity identity;
    identity.pid = capture->owner;
    identity.host = capture->host;
    identity.command = commandLine();
    identity.sessionId = config.sessionId;
    identity.startNs = now();
    const std::string path
        = config.partDir + "/" + capture->host + "-" + std::to_string(capture->owner) + ".part.ridge";
    auto part = PartWriter::create(path, identity);
    if (part.hasError()) {
        fail("cannot write the part file " + path + " (" + part.error().message + "); nothing is recorded.");
        return nullptr;
    }
    capture->part.emplace(std::move(part).value());
    (void)capture->part->setMeta("capture.metrics", config.metricsLabel());
    capture->crashPath = crashFilePath(config.partDir, capture->host, capture->owner);
    capture->crashFd = openCrashFile(capture->crashPath);
    if (capture->crashFd < 0)
        reportLocked(*capture,
            "the crash file " + capture->crashPath
                + " could not be opened; a crash would lose the records CUPTI holds.",
            false);
    return capture;
}

// Nothing can be traced: the part is finished now, with the error it holds.
int finishUntraced(Capture& capture)
{
    (void)capture.part->finish(now());
    capture.part.reset();
    capture.finished = true;
    return 0;
}

// Runs `write` on the part file under the capture's lock, when this process owns the capture (ownedHere)
// and the part is still open.
template <typename Write> void withPart(Capture* capture, Write write)
{
    if (!ownedHere(capture))
        return;
    std::lock_guard guard(capture->mutex);
    if (capture->part)
        write(*capture->part);
}

// A failure to store counters becomes a warning; caller holds the mutex.
void noteCountersWritten(Capture& capture, const core::Status& added)
{
    if (added.hasError())
        report(capture, "writing counters failed (" + added.error().message + ").", false);
}

// Where the counter collector's values, replay passes and problems go: the part file and stderr.
CounterSink counterSink(Capture* capture)
{
    // A forked child shares the part file's descriptor: it never writes (ownedHere).
    CounterSink sink;
    sink.expect = [capture](std::uint32_t correlationId) {
        withPart(capture, [&](PartWriter& part) { part.expectCounters(correlationId); });
    };
    sink.values = [capture](std::uint32_t correlationId, std::vector<core::MetricValue> values) {
        withPart(capture, [&](PartWriter& part) {
            noteCountersWritten(*capture, part.addCounters(correlationId, std::move(values)));
        });
    };
    sink.problem = [capture](const std::string& sentence, bool fatal) {
        if (ownedHere(capture))
            reportLocked(*capture, sentence, fatal);
    };
    sink.expectGraph = [capture](std::uint32_t correlationId) {
        withPart(capture, [&](PartWriter& part) { part.expectGraphCounters(correlationId); });
    };
    sink.graphValues = [capture](std::uint32_t correlationId, std::vector<GraphRange> ranges) {
        withPart(capture, [&](PartWriter& part) {
            noteCountersWritten(*capture, part.addGraphCounters(correlationId, std::move(ranges)));
        });
    };
    sink.passes = [capture](const std::string& passes) {
        if (!ownedHere(capture))
            return;
        std::lock_guard guard(capture->mutex);
        if (capture->part)
            (void)capture->part->setMeta("capture.replay_passes", passes);
        printOnce(*capture,
            "counters (" + capture->config.metricsLabel() + ") need " + passes + " replay passes per profiled kernel.");
    };
    return sink;
}

int setUp()
{
    auto* capture = openCapture();
    if (!capture)
        return 0;
    g_capture = capture;
    const InjectionConfig& config = capture->config;
    for (const auto& warning : config.warnings)
        reportLocked(*capture, warning, false);

    // Called by the CUDA driver, the driver is loaded; anything else (a test, a wrong preload) is
    // told so. The driver is never initialised from here: InitializeInjection runs inside cuInit.
    if (!dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD)) {
        reportLocked(*capture,
            "the NVIDIA CUDA driver (libcuda.so.1) is not loaded in this process, so no GPU activity can be recorded "
            "(no NVIDIA driver installed, or InitializeInjection was not called by the CUDA driver).",
            true);
        return finishUntraced(*capture);
    }

    capture->translator.emplace(capture->part->processId(), [](CUpti_ActivityKind kind, std::uint32_t cbid) {
        const char* name = nullptr;
        const auto domain
            = kind == CUPTI_ACTIVITY_KIND_RUNTIME ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API;
        if (cuptiGetCallbackName(domain, cbid, &name) != CUPTI_SUCCESS || !name)
            return std::string();
        return std::string(name);
    });
    capture->translator->setNcclCalls(&capture->nccl);
    const ActivitySetup setup = enableActivities(onBuffer, config.flushPeriodMs);
    for (const auto& warning : setup.warnings)
        reportLocked(*capture, warning, false);
    if (!setup.error.empty()) {
        reportLocked(*capture, setup.error, true);
        return finishUntraced(*capture);
    }
    // CUPTI's own periodic flush hands over only full buffers: complete ones are asked for here.
    if (!capture->periodicFlush.start(config.flushPeriodMs, [] { (void)cuptiActivityFlushAll(0); }))
        reportLocked(*capture,
            "the periodic flush could not be started; records reach the part file when CUPTI's buffers fill and "
            "at exit.",
            false);

    if (config.metricsMode != MetricsMode::None) {
        auto counters = CounterCollector::start(config, counterSink(capture), &capture->nccl);
        if (counters.hasError())
            reportLocked(*capture, counters.error().message, true);
        else
            capture->counters = std::move(counters).value();
    }

    std::atexit(atExit);
    installFatalSignalHandlers(onFatalSignal);
    pthread_atfork(nullptr, nullptr, inForkedChild);
    return 1;
}

} // namespace

int startCapture() noexcept
{
    if (g_started.exchange(true))
        return g_capture && !g_capture->finished.load() ? 1 : 0;
    try {
        return setUp();
    } catch (const std::exception& error) {
        return fail(std::string("the capture could not be set up (") + error.what() + "); nothing is recorded.");
    } catch (...) {
        return fail("the capture could not be set up; nothing is recorded.");
    }
}

int forwardNvtxInjection(void* getExportTable) noexcept
{
    // As the CUPTI guide says a CUPTI-based injection library should ("Initialization to Receive
    // NVTX Callbacks or Activity Records"): libcupti.so.13 exports cuptiNvtxInitialize2, which no
    // header declares.
    return cuptiNvtxInitialize2(getExportTable) == CUPTI_SUCCESS ? 1 : 0;
}

} // namespace ridgeline::inject

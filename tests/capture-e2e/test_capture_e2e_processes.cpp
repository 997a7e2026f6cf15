// SPDX-License-Identifier: MIT
// End-to-end capture tests (test_capture_e2e.cpp says what they run) of programs whose processes
// end or multiply mid-run: a crash through the injection library's fatal-signal handler, a
// forked child, an execed child, and a SIGKILL that leaves only what was flushed periodically.
#include "e2e.h"
#include "e2echecks.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <unistd.h>

using namespace ridgeline;
using namespace ridgeline::e2e;
using ridgeline::testing::TempDir;

namespace {

// A crash mid-run, through the injection library's own fatal-signal handler: every record the
// stand-in CUPTI delivered is in the session (part file or crash file), none is lost, nothing is
// allocated in the handler, and the session is partial.
void expectCrashRecovered(const char* mode, int signal)
{
    TempDir dir;
    Options options;
    // Small buffers that CUPTI's worker hands over as soon as they fill: some records reach the part
    // file normally, the rest through the crash file.
    options.env = { "RIDGELINE_FAKE_BUFFER_BYTES=16384", "RIDGELINE_FAKE_FLUSH_MS=10",
        "ASAN_OPTIONS=handle_segv=0:handle_abort=0" };
    const auto run = capture(dir, { mode, "120" }, options);
    EXPECT_EQ(run.result.exitCode, 128 + signal) << run.result.err;
    ASSERT_TRUE(run.session.error.empty()) << run.session.error;
    const Session& s = run.session;
    EXPECT_EQ(s.meta.at("status"), "partial");
    EXPECT_EQ(run.ledger.count("alloc-in-signal"), 0u) << "the fatal-signal path allocated memory";
    for (const Line* l : run.ledger.of("alloc-in-signal"))
        ADD_FAILURE() << "allocation in the signal handler: " << l->text(2);
    ASSERT_EQ(run.ledger.count("kernel"), 120u);
    expectKernels(run, { run.ledger.of("kernel").front()->pid() });
    expectMemops(run);
    // Records recovered from the crash file keep their callback ids but no names (no libcupti in
    // the launcher): compare the API calls by correlation and time only.
    std::size_t api = 0;
    for (const Line* l : run.ledger.of("api")) {
        api += std::any_of(s.apiCalls.begin(), s.apiCalls.end(), [&](const core::ApiCall& c) {
            return c.correlationId == l->num(4) && c.startNs == l->num(6) && c.endNs == l->num(7);
        });
    }
    EXPECT_EQ(api, run.ledger.count("api"));
    // The NVTX ranges closed before the crash.
    EXPECT_EQ(s.nvtx.size(), run.ledger.count("nvtx"));
    const std::string died = "the process died of signal " + std::to_string(signal) + "; ";
    const auto at = s.warnings().find(died);
    ASSERT_NE(at, std::string::npos) << s.warnings();
    // Both ways were taken: records in the part file, and the rest from the handler.
    const auto recovered = std::strtoull(s.warnings().c_str() + at + died.size(), nullptr, 10);
    const auto delivered = run.ledger.count("kernel") + run.ledger.count("memcpy") + run.ledger.count("api")
        + 2 * run.ledger.count("nvtx") + run.ledger.count("device");
    EXPECT_GT(recovered, 0u) << s.warnings();
    EXPECT_LT(recovered, delivered) << s.warnings();
    EXPECT_EQ(s.meta.at("capture.signal"), std::to_string(signal));
    // Counters of the launches before the crash are in the part file.
    EXPECT_GT(s.metrics.size(), 0u);
}

} // namespace

TEST(CaptureEndToEnd, SegfaultMidRunLosesNoDeliveredRecord)
{
    expectCrashRecovered("segv", SIGSEGV);
}

TEST(CaptureEndToEnd, AbortMidRunLosesNoDeliveredRecord)
{
    expectCrashRecovered("abort", SIGABRT);
}

TEST(CaptureEndToEnd, ForkedChildLeavesTheParentsPartAlone)
{
    TempDir dir;
    const auto run = capture(dir, { "fork" });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    EXPECT_EQ(s.meta.at("status"), "complete");
    // The child (no exec) shares the parent's CUPTI state and part file descriptor: it records
    // nothing, and the parent's records are all there.
    EXPECT_EQ(run.ledger.count("fork"), 1u);
    std::set<std::int64_t> pids;
    for (const Line* l : run.ledger.of("kernel"))
        pids.insert(l->pid());
    ASSERT_EQ(pids.size(), 2u);
    const std::int64_t parent = run.ledger.of("attach").front()->pid();
    expectKernels(run, { parent });
    EXPECT_TRUE(s.kernelsNamed(kChild).empty());
    EXPECT_EQ(s.kernels.size(), 2u);
    // Nor is it profiled (its counters could not be kept, and its launches must not wait).
    for (const Line* l : run.ledger.of("range"))
        EXPECT_EQ(l->pid(), parent) << "the forked child was profiled";
    EXPECT_EQ(expectCounters(run), 2u);
    EXPECT_EQ(s.meta.at("capture.parts"), "1");
}

TEST(CaptureEndToEnd, ExecedChildWritesAPartOfItsOwn)
{
    TempDir dir;
    const auto run = capture(dir, { "forkexec" });
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    const Session& s = run.session;
    EXPECT_EQ(s.meta.at("status"), "complete");
    EXPECT_EQ(s.meta.at("capture.parts"), "2");
    std::set<std::int64_t> pids;
    for (const Line* l : run.ledger.of("attach"))
        pids.insert(l->pid());
    ASSERT_EQ(pids.size(), 2u);
    expectKernels(run, pids);
    EXPECT_EQ(s.kernelsNamed(kSmall).size(), 3u);
    // Both processes profiled their launches.
    EXPECT_EQ(expectCounters(run), run.ledger.count("kernel"));
}

TEST(CaptureEndToEnd, AKilledProcessKeepsWhatWasFlushedPeriodically)
{
    // SIGKILL gives no handler a chance: what the part file holds is all there is. Buffers of 8 MB
    // never fill here, so only the library's own periodic flush (cuptiActivityFlushAll(0) every
    // second) can have delivered the records; CUPTI's periodic flush hands over full buffers only.
    TempDir dir;
    const std::string ledger = dir.file("ledger.tsv");
    ridgeline::testing::RunOptions ro;
    ro.env = { std::string("CUDA_HOME=") + E2E_CUDA_ROOT, std::string("RIDGELINE_LIBCUDA=") + E2E_LIBCUDA,
        "RIDGELINE_FAKE_LEDGER=" + ledger, "RIDGELINE_FAKE_BUFFER_BYTES=8388608", "XDG_CACHE_HOME=" + dir.file("c") };
    ro.timeoutSeconds = 30;
    const std::string out = dir.file("s.ridge");
    ridgeline::testing::CliRun cli(
        { RIDGELINE_CLI, "capture", "-o", out, "--metrics", "none", "--", E2E_TARGET, "hang", "40" }, ro);
    // Wait for every launch and then for a flush after the last one (about a second).
    std::int64_t target = 0;
    bool flushed = false;
    for (int i = 0; i < 200 && !flushed; ++i) { // at most ~10 s
        usleep(50'000);
        const auto l = readLedger(ledger);
        if (l.count("kernel") < 40)
            continue;
        target = l.of("attach").front()->pid();
        bool afterLast = false;
        for (const auto& line : l.lines) {
            if (line.type() == "kernel")
                afterLast = false;
            else if (line.type() == "flushall")
                afterLast = true;
        }
        flushed = afterLast;
    }
    if (target > 0)
        ::kill(static_cast<pid_t>(target), SIGKILL); // also when the check below fails: no waiting
    ASSERT_TRUE(flushed) << "no flush delivered the records while the program ran";
    const auto result = cli.wait();
    EXPECT_EQ(result.exitCode, 128 + SIGKILL) << result.err;
    e2e::Run run;
    run.ledger = readLedger(ledger);
    run.session = readSession(out);
    ASSERT_TRUE(run.session.error.empty()) << run.session.error;
    EXPECT_EQ(run.session.meta.at("status"), "partial");
    expectKernels(run, { target });
    expectMemops(run);
}

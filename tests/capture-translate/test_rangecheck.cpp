// SPDX-License-Identifier: MIT
// The range profiler's rules (rangecheck.h): the serialisation of launches around a profiled one,
// matching the decoded range to the launch, and counters that could not be collected. The launch
// side uses CUPTI 13's own callback record (CUpti_CallbackData), as the collector sees it.
#include "rangecheck.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cupti.h>
#include <gtest/gtest.h>
#include <thread>

using namespace ridgeline::inject;
using namespace std::chrono_literals;

namespace {

// Two contexts as the driver hands them out: opaque CUcontext pointers inside callback records.
CUpti_CallbackData launchOn(CUcontext context, const char* symbol)
{
    CUpti_CallbackData data {};
    data.callbackSite = CUPTI_API_ENTER;
    data.context = context;
    data.symbolName = symbol;
    return data;
}

CUcontext fakeContext(std::uintptr_t n)
{
    return reinterpret_cast<CUcontext>(n * 0x1000);
}

// Waits (bounded) until `done` holds.
template <typename F> bool eventually(F done)
{
    for (int i = 0; i < 400; ++i) {
        if (done())
            return true;
        std::this_thread::sleep_for(5ms);
    }
    return false;
}

} // namespace

TEST(LaunchGate, AnotherThreadsLaunchWaitsWhileAProfiledLaunchIsInFlight)
{
    LaunchGate gate;
    const auto profiled = launchOn(fakeContext(1), "_Z4gemmv");
    const auto other = launchOn(fakeContext(1), "_Z6scalev");
    gate.enterProfiled(profiled.context);
    std::atomic<bool> entered { false };
    std::thread t([&] {
        gate.enterPlain(other.context);
        entered = true;
        gate.exitPlain(other.context);
    });
    std::this_thread::sleep_for(50ms);
    EXPECT_FALSE(entered.load()); // held back while the profiled launch is in flight
    EXPECT_EQ(gate.inside(profiled.context), std::make_pair(0, 1));
    gate.exitProfiled(profiled.context);
    EXPECT_TRUE(eventually([&] { return entered.load(); }));
    t.join();
}

TEST(LaunchGate, AProfiledLaunchWaitsForLaunchesAlreadyInsideAndBlocksNewOnes)
{
    LaunchGate gate;
    const CUcontext ctx = fakeContext(2);
    gate.enterPlain(ctx); // a launch already inside its API call
    std::atomic<bool> profiledIn { false };
    std::thread profiler([&] {
        gate.enterProfiled(ctx);
        profiledIn = true;
        std::this_thread::sleep_for(30ms);
        gate.exitProfiled(ctx);
    });
    std::this_thread::sleep_for(50ms);
    EXPECT_FALSE(profiledIn.load());
    // A launch that comes now queues behind the waiting profiled launch (it is not starved).
    std::atomic<bool> lateIn { false };
    std::thread late([&] {
        gate.enterPlain(ctx);
        lateIn = true;
        EXPECT_EQ(gate.inside(ctx).second, 0); // never alongside the profiled launch
        gate.exitPlain(ctx);
    });
    std::this_thread::sleep_for(50ms);
    EXPECT_FALSE(lateIn.load());
    gate.exitPlain(ctx);
    EXPECT_TRUE(eventually([&] { return profiledIn.load(); }));
    profiler.join();
    late.join();
    EXPECT_TRUE(lateIn.load());
}

TEST(LaunchGate, PlainLaunchesAndOtherContextsNeverWait)
{
    LaunchGate gate;
    const CUcontext a = fakeContext(3), b = fakeContext(4);
    gate.enterPlain(a);
    gate.enterPlain(a); // plain launches share the context
    EXPECT_EQ(gate.inside(a), std::make_pair(2, 0));
    gate.enterProfiled(b); // another context: independent
    std::atomic<bool> entered { false };
    std::thread t([&] {
        gate.enterPlain(a);
        entered = true;
        gate.exitPlain(a);
    });
    EXPECT_TRUE(eventually([&] { return entered.load(); }));
    t.join();
    gate.exitProfiled(b);
    gate.exitPlain(a);
    gate.exitPlain(a);
    EXPECT_EQ(gate.inside(a), std::make_pair(0, 0));
}

TEST(RangeCheck, TheLaunchsOwnRangeIsCounted)
{
    // Range names as auto ranges give them: the kernel's name, mangled or demangled.
    const char* mangled = "_Z4gemmPKfS0_Pfi";
    const char* demangled = "gemm(const float*, const float*, float*, int)";
    for (const char* name : { mangled, demangled, "gemm" }) {
        const auto j = judgeRange(3, 4, 0, name, mangled, demangled);
        EXPECT_EQ(j.outcome, RangeOutcome::Counted) << name;
        EXPECT_EQ(j.rangeIndex, 3u); // the newest range of the image
        EXPECT_TRUE(j.sentence.empty());
    }
}

TEST(RangeCheck, DroppedForeignAndEmptyRangesAreNotCounted)
{
    const char* mangled = "_Z4gemmv";
    const char* demangled = "gemm()";
    const auto dropped = judgeRange(0, 0, 1, "", mangled, demangled);
    EXPECT_EQ(dropped.outcome, RangeOutcome::Dropped);
    EXPECT_EQ(dropped.sentence,
        "CUPTI dropped the counter range of a launch of gemm() (1 range dropped); that launch "
        "has no counters.");
    EXPECT_EQ(judgeRange(5, 5, 0, "", mangled, demangled).outcome, RangeOutcome::NoKernel);
    const auto two = judgeRange(0, 2, 0, "gemm", mangled, demangled);
    EXPECT_EQ(two.outcome, RangeOutcome::Foreign);
    EXPECT_NE(two.sentence.find("2 counter ranges instead of one"), std::string::npos);
    const auto other = judgeRange(0, 1, 0, "scale", mangled, demangled);
    EXPECT_EQ(other.outcome, RangeOutcome::Foreign);
    EXPECT_NE(other.sentence.find("is named \"scale\""), std::string::npos);
    EXPECT_FALSE(rangeNameMatches("", mangled, demangled));
    EXPECT_FALSE(rangeNameMatches("gem", mangled, demangled));
    // A launch whose callback named no kernel (no symbol) is not checked by name; one range is its.
    EXPECT_EQ(judgeRange(0, 1, 0, "scale", "", "").outcome, RangeOutcome::Counted);
    EXPECT_EQ(judgeRange(0, 2, 0, "scale", "", "").outcome, RangeOutcome::Foreign);
}

TEST(RangeCheck, CountersThatCouldNotBeCollectedAreMissingNotZero)
{
    const std::vector<std::string> names { "dram__bytes.sum", "lts__t_bytes.sum", "l1tex__t_bytes.sum" };
    const auto c = collectedValues(names, { 1024.0, std::nan(""), 0.0 });
    ASSERT_EQ(c.values.size(), 2u);
    EXPECT_EQ(c.values[0].name, "dram__bytes.sum");
    EXPECT_EQ(c.values[1].name, "l1tex__t_bytes.sum"); // a real 0 stays 0
    EXPECT_EQ(c.values[1].value, 0.0);
    EXPECT_EQ(c.missing, std::vector<std::string> { "lts__t_bytes.sum" });
    // Fewer values than names (a failed evaluation): the rest are missing.
    EXPECT_EQ(collectedValues(names, { 1.0 }).missing.size(), 2u);
}

// SPDX-License-Identifier: MIT
// What the app and the Perfetto export show of PyTorch operators (issue 17): the per-launch lookup
// (operatorlookup.h), the kernel table grouped by operator and module (operatorgroups.h), operator
// lanes on the timeline and operators with their flow arrows in the Perfetto trace. Expected values
// come from the real traces read with zlib + nlohmann::json and linked by brute force
// (kinetobrute.h), never from core's own index.
#include "kinetobrute.h"
#include "operatortrace.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "ridgeline/core/analysis/sessiontimeline.h"
#include "ridgeline/core/output/exporters.h"
#include "ridgeline/core/output/sessionoperators.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/timeline/timelinelod.h"
#include "testutil.h"

#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <set>
#include <sstream>

using namespace ridgeline;
using namespace ridgeline::testing::kineto;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace {

const char* const kRealTraces[] = {
    "kineto/trace_filter/sampled_rank-0.json.gz",
    "kineto/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz",
    "kineto/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
    "kineto/nccl_parser_config/nccl_data.json.gz",
};

struct ImportedTrace {
    TempDir dir;
    std::string session;
    Trace trace;
    Links links;
    std::optional<core::SessionReader> reader; // the session, open
};

std::unique_ptr<ImportedTrace> import(const std::string& tracePath)
{
    auto out = std::make_unique<ImportedTrace>();
    out->session = out->dir.file("s.ridge");
    auto imported = collectors::importKineto({ tracePath }, out->session, false);
    EXPECT_TRUE(imported.ok()) << imported.error().message;
    out->trace = readTrace(tracePath);
    out->links = linkGpuOps(out->trace);
    auto reader = core::SessionReader::open(out->session);
    EXPECT_TRUE(reader.ok());
    if (reader.ok())
        out->reader.emplace(std::move(reader).value());
    return out;
}

core::SessionOperators operatorsOf(core::SessionReader& reader)
{
    auto loaded = core::loadSessionOperators(reader);
    EXPECT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_TRUE(loaded.value().has_value());
    return std::move(*loaded.value());
}

// One of the real traces (the test's parameter) imported, its session open.
class RealTrace : public ::testing::TestWithParam<const char*> {
protected:
    void SetUp() override
    {
        in = import(testDataPath(GetParam()));
        ASSERT_TRUE(in->reader);
    }

    std::unique_ptr<ImportedTrace> in;
};

class OperatorViewsOfATrace : public RealTrace { };
class OperatorLanesOfATrace : public RealTrace { };
class OperatorFlowsOfATrace : public RealTrace { };

// The GPU op of the trace with this correlation id and start (kernels: a unique key in one trace).
std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> gpuOpsByKey(const Trace& t)
{
    std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> out;
    for (std::size_t i = 0; i < t.gpuOps.size(); ++i)
        out.emplace(std::pair { t.gpuOps[i].correlation, t.gpuOps[i].start }, i);
    return out;
}

} // namespace

INSTANTIATE_TEST_SUITE_P(RealTraces, OperatorViewsOfATrace, ::testing::ValuesIn(kRealTraces));
INSTANTIATE_TEST_SUITE_P(RealTraces, OperatorLanesOfATrace, ::testing::Values(kRealTraces[0], kRealTraces[2]));
INSTANTIATE_TEST_SUITE_P(RealTraces, OperatorFlowsOfATrace, ::testing::Values(kRealTraces[0], kRealTraces[1]));

// Every kernel launch's innermost and top-level operator, against the brute-force link.
TEST_P(OperatorViewsOfATrace, LookupOfEveryLaunchMatchesBruteForce)
{
    core::SessionReader& reader = *in->reader;
    const auto ops = operatorsOf(reader);
    const auto& lookup = ops.lookup;
    EXPECT_EQ(lookup.size(), in->trace.ops.size());
    auto kernels = reader.kernels();
    ASSERT_TRUE(kernels.ok());
    const auto byKey = gpuOpsByKey(in->trace);
    std::int64_t attributed = 0;
    for (const auto& k : kernels.value()) {
        auto found = byKey.find({ k.correlationId, k.startNs });
        ASSERT_NE(found, byKey.end()) << "kernel " << k.id;
        const auto& expected = in->links.opOfGpuOp[found->second];
        const auto launch = lookup.ofKernel(k.id);
        if (!expected) {
            EXPECT_EQ(launch.innermost, core::OperatorLookup::kNone) << "kernel " << k.id;
            continue;
        }
        ++attributed;
        ASSERT_NE(launch.innermost, core::OperatorLookup::kNone) << "kernel " << k.id;
        const Event& op = in->trace.ops[*expected];
        EXPECT_EQ(lookup.name(launch.innermost), op.name);
        EXPECT_EQ(lookup.startNs(launch.innermost), op.start);
        EXPECT_EQ(lookup.endNs(launch.innermost), op.end);
        EXPECT_EQ(lookup.threadId(launch.innermost), op.tid);
        const Event& top = in->trace.ops[outermostOf(in->trace, *expected)];
        ASSERT_NE(launch.outermost, core::OperatorLookup::kNone);
        EXPECT_EQ(lookup.name(launch.outermost), top.name);
        EXPECT_EQ(lookup.startNs(launch.outermost), top.start);
        // The stack runs from the innermost up to the top level.
        const auto stack = lookup.stack(launch.innermost);
        ASSERT_FALSE(stack.empty());
        EXPECT_EQ(stack.front(), launch.innermost);
        EXPECT_EQ(stack.back(), launch.outermost);
        for (std::size_t i = 1; i < stack.size(); ++i) {
            EXPECT_LE(lookup.startNs(stack[i]), lookup.startNs(stack[i - 1]));
            EXPECT_GE(lookup.endNs(stack[i]), lookup.endNs(stack[i - 1]));
        }
    }
    EXPECT_GT(attributed, 0);
    EXPECT_EQ(static_cast<std::int64_t>(lookup.kernelsWithOperator()), attributed);
}

// The kernel table by operator: per (operator, kernel) the GPU time and launches of the brute-force
// link; children add up to their group, groups to all GPU time; unattributed last.
TEST_P(OperatorViewsOfATrace, GroupsByOperatorMatchBruteForce)
{
    core::SessionReader& reader = *in->reader;
    const auto ops = operatorsOf(reader);
    auto names = reader.kernelNames();
    ASSERT_TRUE(names.ok());
    std::map<std::int64_t, std::string> kernelName;
    for (const auto& n : names.value())
        kernelName[n.id] = n.raw;

    // Brute force: (operator name or "(unattributed)", kernel name or "<copies>") -> (time, ops).
    std::map<std::pair<std::string, std::string>, std::pair<std::int64_t, std::int64_t>> expected;
    std::int64_t total = 0;
    for (std::size_t i = 0; i < in->trace.gpuOps.size(); ++i) {
        const Event& g = in->trace.gpuOps[i];
        const auto& op = in->links.opOfGpuOp[i];
        auto& cell = expected[{ op ? in->trace.ops[*op].name : std::string(core::kUnattributedGroupName),
            g.cat == "kernel" ? g.name : std::string("<copies>") }];
        cell.first += g.duration();
        cell.second += 1;
        total += g.duration();
    }
    std::map<std::pair<std::string, std::string>, std::pair<std::int64_t, std::int64_t>> actual;
    const auto& groups = ops.byOperator;
    EXPECT_EQ(groups.gpuTimeNs, total);
    std::int64_t sum = 0;
    for (std::size_t g = 0; g < groups.groups.size(); ++g) {
        const auto& group = groups.groups[g];
        EXPECT_EQ(group.unattributed, group.row.name == core::kUnattributedGroupName);
        if (group.unattributed) {
            EXPECT_EQ(g + 1, groups.groups.size()) << "(unattributed) comes last";
        } else if (g > 0 && !groups.groups[g - 1].unattributed) {
            EXPECT_GE(groups.groups[g - 1].row.gpuTimeNs, group.row.gpuTimeNs) << "most GPU time first";
        }
        std::int64_t children = 0;
        for (const auto& child : group.children) {
            auto& cell = actual[{ group.row.name, child.isKernel() ? kernelName[child.nameId] : "<copies>" }];
            cell.first += child.gpuTimeNs;
            cell.second += child.gpuOps;
            children += child.gpuTimeNs;
        }
        EXPECT_EQ(children, group.row.gpuTimeNs) << group.row.name;
        std::int64_t byVerdict = 0; // the verdict column reads these
        for (const auto t : group.row.timeByVerdictNs)
            byVerdict += t;
        EXPECT_EQ(byVerdict, group.row.gpuTimeNs) << group.row.name;
        sum += group.row.gpuTimeNs;
    }
    EXPECT_EQ(sum, total);
    EXPECT_EQ(actual, expected);

    // No module in these traces: every attributed GPU op is under "(no module)".
    std::int64_t attributed = 0;
    for (const auto& [key, cell] : expected)
        attributed += key.first == core::kUnattributedGroupName ? 0 : cell.first;
    ASSERT_FALSE(ops.byModule.groups.empty());
    EXPECT_EQ(ops.byModule.groups.front().row.name, "(no module)");
    EXPECT_EQ(ops.byModule.groups.front().row.gpuTimeNs, attributed);
}

// What the real traces lack, on a small synthetic one (values by hand in the comments): modules from
// python_function and Module Hierarchy, input shapes and types, a call stack, an NCCL kernel from a
// thread without operators. The stack's texts come back from only the chunks that hold them.
TEST(OperatorViews, StackModulesAndTextsOnASyntheticTrace)
{
    const char* trace = ridgeline::testing::kSyntheticOperatorTrace;
    TempDir dir;
    const auto path = dir.file("synthetic.json");
    std::ofstream(path) << trace;
    ASSERT_TRUE(collectors::importKineto({ path }, dir.file("s.ridge"), false).ok());
    auto reader = core::SessionReader::open(dir.file("s.ridge"));
    ASSERT_TRUE(reader.ok());
    const auto ops = operatorsOf(reader.value());
    const auto& lookup = ops.lookup;
    auto kernels = reader.value().kernels();
    ASSERT_TRUE(kernels.ok());
    std::map<std::int64_t, std::int64_t> kernelOfCorrelation;
    for (const auto& k : kernels.value())
        kernelOfCorrelation[k.correlationId] = k.id;

    // gemm: launched inside aten::addmm, inside aten::linear, inside the two Python modules.
    const auto gemm = lookup.ofKernel(kernelOfCorrelation.at(7));
    ASSERT_NE(gemm.innermost, core::OperatorLookup::kNone);
    std::vector<std::string> names;
    for (const auto op : lookup.stack(gemm.innermost))
        names.emplace_back(lookup.name(op));
    EXPECT_EQ(
        names, (std::vector<std::string> { "aten::addmm", "aten::linear", "nn.Module: Linear_0", "nn.Module: Net_0" }));
    EXPECT_EQ(lookup.name(gemm.outermost), "aten::linear"); // the top-level cpu_op
    EXPECT_EQ(lookup.module(gemm.innermost), "Net_0.Linear_0");
    EXPECT_FALSE(lookup.isCpuOp(lookup.stack(gemm.innermost).back()));
    // gemm2: aten::mm's Module Hierarchy; the NCCL kernel of thread 2: no operator.
    const auto gemm2 = lookup.ofKernel(kernelOfCorrelation.at(8));
    EXPECT_EQ(lookup.name(gemm2.innermost), "aten::mm");
    EXPECT_EQ(lookup.module(gemm2.innermost), "top.Net.fc2");
    EXPECT_EQ(lookup.ofKernel(kernelOfCorrelation.at(9)), core::OperatorLookup::Launch {});

    // The texts of the stack, read from its chunks only.
    std::vector<std::int64_t> ids, chunks;
    for (const auto op : lookup.stack(gemm.innermost)) {
        ids.push_back(lookup.id(op));
        chunks.push_back(lookup.chunkOf(op));
    }
    auto stack = reader.value().operatorsInChunks(chunks, ids);
    ASSERT_TRUE(stack.ok()) << stack.error().message;
    ASSERT_EQ(stack.value().size(), 4u);
    EXPECT_EQ(stack.value()[0].name, "aten::addmm");
    EXPECT_EQ(stack.value()[0].sequenceNumber, 5);
    EXPECT_EQ(stack.value()[1].inputDims, "[[8, 4], [2, 4]]");
    EXPECT_EQ(stack.value()[1].inputTypes, "[\"float\", \"float\"]");
    EXPECT_EQ(stack.value()[1].callStack, "model.py(3): forward;train.py(9): step");
    auto all = reader.value().operatorsById(ids);
    ASSERT_TRUE(all.ok());
    EXPECT_EQ(stack.value(), all.value()); // the same rows as the scan of every operator
    // A chunk that does not hold an operator asked for gives nothing for it.
    auto none = reader.value().operatorsInChunks({ lookup.chunkOf(gemm.innermost) + 1 }, { lookup.id(gemm.innermost) });
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none.value().empty());

    // By module: 10 µs under Net_0.Linear_0, 20 µs under top.Net.fc2, 5 µs unattributed.
    std::map<std::string, std::int64_t> byModule;
    for (const auto& g : ops.byModule.groups)
        byModule[g.row.name] = g.row.gpuTimeNs;
    EXPECT_EQ(byModule,
        (std::map<std::string, std::int64_t> {
            { "Net_0.Linear_0", 10'000 }, { "top.Net.fc2", 20'000 }, { core::kUnattributedGroupName, 5'000 } }));
    // The kernel's main group and where it sits.
    const auto main = ops.byOperator.mainGroupOf(kernels.value()[0].nameId, kernels.value()[0].deviceId);
    ASSERT_TRUE(main.has_value());
    EXPECT_DOUBLE_EQ(main->share, 1.0);
}

// Operator lanes on the timeline: one per thread with operators, a row per nesting depth (each
// operator below the top row is held by one in the row above), every operator of the trace once, and
// each found again by its thread, start and id (the timeline's highlight of a launch's operators).
TEST_P(OperatorLanesOfATrace, TimelineLanesHoldEveryOperatorNested)
{
    core::SessionReader& reader = *in->reader;
    auto timeline = core::loadTimelineData(reader);
    ASSERT_TRUE(timeline.ok()) << timeline.error().message;
    const auto& data = timeline.value();
    std::set<std::pair<std::int64_t, std::int64_t>> threadsWithLanes;
    std::multiset<std::tuple<std::int64_t, std::int64_t, std::string>> items; // (start, end, name)
    for (const auto& lane : data.lanes()) {
        if (lane.kind != core::TimelineLaneKind::Operators)
            continue;
        EXPECT_TRUE(threadsWithLanes.insert({ lane.processId, lane.threadId }).second) << "one lane per thread";
        EXPECT_NE(lane.label.find(std::to_string(lane.threadId)), std::string::npos);
        for (std::uint32_t r = lane.firstRow; r < lane.firstRow + lane.rowCount; ++r) {
            const auto& row = data.row(r);
            for (std::size_t i = 0; i < row.size(); ++i) {
                const auto item = row.item(i);
                EXPECT_EQ(item.kind, core::TimelineItemKind::Operator);
                items.emplace(item.startNs, item.endNs, std::string(data.name(item.nameIndex)));
                if (r == lane.firstRow)
                    continue;
                const auto& above = data.row(r - 1);
                const auto holder = above.itemAt(item.startNs);
                ASSERT_TRUE(holder.has_value()) << item.startNs;
                EXPECT_LE(above.startNs(*holder), item.startNs);
                EXPECT_GE(above.endNs(*holder), item.endNs) << "row " << r - lane.firstRow;
            }
        }
    }
    std::multiset<std::tuple<std::int64_t, std::int64_t, std::string>> expected;
    std::set<std::int64_t> threads;
    for (const auto& op : in->trace.ops) {
        expected.emplace(op.start, op.end, op.name);
        threads.insert(op.tid);
    }
    EXPECT_EQ(items, expected);
    EXPECT_EQ(threadsWithLanes.size(), threads.size());

    const auto ops = operatorsOf(reader);
    const auto& lookup = ops.lookup;
    for (std::uint32_t op = 0; op < lookup.size(); ++op) {
        const auto ref = data.findHostItem(core::TimelineLaneKind::Operators, lookup.processId(op), lookup.threadId(op),
            lookup.startNs(op), lookup.id(op));
        ASSERT_TRUE(ref.has_value()) << "operator " << lookup.id(op);
        EXPECT_EQ(data.row(ref->row).endNs(ref->index), lookup.endNs(op));
    }
}

namespace {

// ts and dur are µs with three decimals: exact ns once scaled back.
std::int64_t exactNs(const nlohmann::json& us)
{
    return static_cast<std::int64_t>(std::llround(us.get<double>() * 1000.0));
}

} // namespace

// The Perfetto trace: every operator a slice (cat cpu_op) on its thread's track, slices nesting on
// each track, and one flow (cat "operator") from the operator that launched each attributed GPU op to
// it, per the Trace Event Format: an "s" at the operator's start on its track, an "f" with bp "e" at
// the GPU op's start on its track, same id, name and category.
TEST_P(OperatorFlowsOfATrace, PerfettoHasOperatorsNestedAndFlowsToTheirGpuOps)
{
    core::SessionReader& reader = *in->reader;
    std::ostringstream out;
    ASSERT_TRUE(core::writePerfettoTrace(reader, out).ok());
    const auto doc = nlohmann::json::parse(out.str());
    // Epoch clocks: ts are microseconds after a whole-second base.
    const std::int64_t base = doc["metadata"]["time_base_ns"].get<std::int64_t>();
    const auto nsOf = [base](const nlohmann::json& ts) { return base + exactNs(ts); };

    using Track = std::pair<std::int64_t, std::int64_t>;
    struct Slice {
        std::int64_t start, end;
        std::string name, cat;
    };
    std::map<Track, std::vector<Slice>> slices;
    std::multiset<std::pair<std::string, std::int64_t>> operators; // (name, start)
    std::map<std::int64_t, std::vector<nlohmann::json>> flows; // id -> its s and f
    for (const auto& e : doc["traceEvents"]) {
        const auto ph = e["ph"].get<std::string>();
        if (ph == "X") {
            const Track track { e["pid"].get<std::int64_t>(), e["tid"].get<std::int64_t>() };
            const std::int64_t start = nsOf(e["ts"]);
            slices[track].push_back(
                { start, start + exactNs(e["dur"]), e["name"].get<std::string>(), e["cat"].get<std::string>() });
            if (e["cat"] == "cpu_op") {
                operators.emplace(e["name"].get<std::string>(), start);
                EXPECT_TRUE(e["args"].contains("operator_id")) << e;
                EXPECT_EQ(e["args"]["start_ns"].get<std::int64_t>(), start);
            }
        } else if ((ph == "s" || ph == "f") && e["cat"] == "operator") {
            EXPECT_EQ(e["name"], "launched");
            EXPECT_TRUE(e.contains("id") && e.contains("ts") && e.contains("pid") && e.contains("tid")) << e;
            flows[e["id"].get<std::int64_t>()].push_back(e);
        }
    }
    std::multiset<std::pair<std::string, std::int64_t>> expected;
    for (const auto& op : in->trace.ops)
        expected.emplace(op.name, op.start);
    EXPECT_EQ(operators, expected);

    // Nesting on each track: in start order (the longer first), each slice ends within the one open.
    for (auto& [track, list] : slices) {
        std::sort(list.begin(), list.end(),
            [](const Slice& a, const Slice& b) { return std::tie(a.start, b.end) < std::tie(b.start, a.end); });
        std::vector<std::int64_t> open;
        for (const auto& s : list) {
            while (!open.empty() && open.back() <= s.start)
                open.pop_back();
            ASSERT_TRUE(open.empty() || s.end <= open.back())
                << s.name << " at " << s.start << " overlaps its parent on " << track.first << "/" << track.second;
            open.push_back(s.end);
        }
    }

    // Flows: one per attributed GPU op, from an operator slice's start to a GPU op slice's start.
    std::int64_t attributed = 0;
    std::multiset<std::pair<std::string, std::int64_t>> launches; // (operator name, GPU op start)
    for (std::size_t i = 0; i < in->trace.gpuOps.size(); ++i) {
        if (const auto& op = in->links.opOfGpuOp[i]) {
            ++attributed;
            launches.emplace(in->trace.ops[*op].name, in->trace.gpuOps[i].start);
        }
    }
    EXPECT_EQ(static_cast<std::int64_t>(flows.size()), attributed);
    std::multiset<std::pair<std::string, std::int64_t>> drawn;
    for (const auto& [id, ends] : flows) {
        ASSERT_EQ(ends.size(), 2u) << id;
        const auto& s = ends[0]["ph"] == "s" ? ends[0] : ends[1];
        const auto& f = ends[0]["ph"] == "f" ? ends[0] : ends[1];
        ASSERT_EQ(s["ph"], "s");
        ASSERT_EQ(f["ph"], "f");
        EXPECT_EQ(f["bp"], "e");
        const auto& from = slices[{ s["pid"].get<std::int64_t>(), s["tid"].get<std::int64_t>() }];
        const auto& to = slices[{ f["pid"].get<std::int64_t>(), f["tid"].get<std::int64_t>() }];
        const auto origin = std::find_if(
            from.begin(), from.end(), [&](const Slice& x) { return x.cat == "cpu_op" && x.start == nsOf(s["ts"]); });
        ASSERT_NE(origin, from.end()) << s;
        const auto target = std::find_if(to.begin(), to.end(), [&](const Slice& x) {
            return (x.cat == "kernel" || x.cat == "memcpy" || x.cat == "memset") && x.start == nsOf(f["ts"]);
        });
        ASSERT_NE(target, to.end()) << f;
        // The operator named by the brute force is among the operators starting there.
        std::string name;
        for (const auto& x : from) {
            if (x.cat == "cpu_op" && x.start == nsOf(s["ts"])
                && launches.count({ x.name, nsOf(f["ts"]) }) > drawn.count({ x.name, nsOf(f["ts"]) }))
                name = x.name;
        }
        ASSERT_FALSE(name.empty()) << s << f;
        drawn.emplace(name, nsOf(f["ts"]));
    }
    EXPECT_EQ(drawn, launches);
}

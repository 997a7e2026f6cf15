// SPDX-License-Identifier: MIT
// Importing the real Kineto traces of tests/data/kineto/ (HTA's test data, see the README there).
// Every expected count is computed here from the same file with zlib + nlohmann::json, not taken
// from the importer: kernels, copies, memsets, NCCL kernels, runtime calls, annotations, ranks.
#include "gunzip.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "ridgeline/core/model/model.h"
#include "testutil.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <sqlite3.h>
#include <string>
#include <zlib.h>

using namespace ridgeline;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace {

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

struct ExpectedTrace {
    std::int64_t kernels = 0, memcpys = 0, memsets = 0, nccl = 0, apiCalls = 0, ranges = 0, operators = 0;
    std::set<std::string> kernelNames;
    int rank = -1;
    int worldSize = 0;
};

// The importer's mapping, restated over a plain JSON reader.
ExpectedTrace expectedFrom(const std::string& path)
{
    const auto doc = nlohmann::json::parse(ridgeline::testing::gunzipFile(path));
    ExpectedTrace e;
    if (doc.contains("distributedInfo") && doc["distributedInfo"].contains("rank")) {
        e.rank = doc["distributedInfo"]["rank"].get<int>();
        e.worldSize = doc["distributedInfo"].value("world_size", 0);
    }
    for (const auto& ev : doc["traceEvents"]) {
        if (ev.value("ph", "") != "X" || !ev.contains("cat") || !ev.contains("ts"))
            continue;
        const auto cat = lower(ev["cat"].get<std::string>());
        const auto name = ev.value("name", "");
        if (cat == "kernel") {
            ++e.kernels;
            e.kernelNames.insert(name);
            // NCCL by HTA's rule, and PyTorch symmetric memory's all-reduce (vllm-b200).
            const bool nccl = name.rfind("nccl", 0) == 0 || name.find("ncclKernel") != std::string::npos
                || name.find("ncclDevKernel") != std::string::npos
                || name.find("multimem_all_reduce_kernel") != std::string::npos
                || (ev.contains("args") && ev["args"].contains("Collective name"));
            e.nccl += nccl ? 1 : 0;
        } else if (cat == "gpu_memcpy" || cat == "memcpy") { // "Memcpy": PyTorch 1.8 and 1.9
            ++e.memcpys;
        } else if (cat == "gpu_memset" || cat == "memset") {
            ++e.memsets;
        } else if (cat == "cuda_runtime" || cat == "cuda_driver" || cat == "runtime" || cat == "driver") {
            ++e.apiCalls;
        } else if (cat == "user_annotation" || cat == "gpu_user_annotation") {
            ++e.ranges;
        } else if (cat == "cpu_op" || cat == "python_function" || cat == "operator") { // "Operator": PyTorch 1.x
            ++e.operators;
        }
    }
    return e;
}

class Session {
public:
    explicit Session(const std::string& path) { sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READONLY, nullptr); }
    ~Session() { sqlite3_close(m_db); }
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
    std::vector<std::string> column(const std::string& sql)
    {
        std::vector<std::string> values;
        sqlite3_stmt* stmt = nullptr;
        EXPECT_EQ(sqlite3_prepare_v2(m_db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sql;
        while (stmt != nullptr && sqlite3_step(stmt) == SQLITE_ROW) {
            const auto* text = sqlite3_column_text(stmt, 0);
            values.emplace_back(text != nullptr ? reinterpret_cast<const char*>(text) : "");
        }
        sqlite3_finalize(stmt);
        return values;
    }
    std::int64_t count(const std::string& sql) { return std::stoll(column(sql).at(0)); }

private:
    sqlite3* m_db = nullptr;
};

std::vector<std::string> everyTrace()
{
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(testDataPath("kineto"))) {
        if (entry.is_regular_file() && entry.path().extension() == ".gz")
            files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// The ts of the first kernel event as written, converted to ns with decimal arithmetic.
std::int64_t firstKernelStartNs(const std::string& text)
{
    const auto kernel = std::min(text.find("\"cat\": \"kernel\""), text.find("\"cat\": \"Kernel\""));
    const auto at = text.find("\"ts\":", kernel);
    std::size_t i = text.find_first_of("0123456789", at + 5);
    std::int64_t us = 0;
    for (; std::isdigit(static_cast<unsigned char>(text[i])); ++i)
        us = us * 10 + (text[i] - '0');
    std::int64_t ns = us * 1000;
    if (text[i] == '.') {
        std::int64_t scale = 100;
        for (++i; std::isdigit(static_cast<unsigned char>(text[i])) && scale > 0; ++i, scale /= 10)
            ns += (text[i] - '0') * scale;
    }
    return ns;
}

} // namespace

TEST(KinetoImport, EveryTraceImportsWithTheCountsOfAPlainJsonReader)
{
    const auto files = everyTrace();
    ASSERT_EQ(files.size(), 20u);
    for (const auto& path : files) {
        SCOPED_TRACE(path);
        TempDir dir;
        const auto out = dir.file("trace.ridge");
        auto imported = collectors::importKineto({ path }, out, false);
        ASSERT_TRUE(imported.ok()) << imported.error().message;
        const ExpectedTrace e = expectedFrom(path);
        const auto& s = imported.value();
        EXPECT_EQ(s.kernels, e.kernels);
        EXPECT_EQ(s.memcpys, e.memcpys);
        EXPECT_EQ(s.memsets, e.memsets);
        EXPECT_EQ(s.commOps, e.nccl);
        EXPECT_EQ(s.apiCalls, e.apiCalls);
        EXPECT_EQ(s.ranges, e.ranges);
        EXPECT_EQ(s.operators, e.operators);
        ASSERT_EQ(s.ranks.size(), 1u);
        EXPECT_EQ(s.ranks[0], e.rank);

        Session db(out);
        const std::string memset = core::toString(core::MemOpKind::Memset);
        EXPECT_EQ(db.count("SELECT count(*) FROM kernels"), e.kernels);
        EXPECT_EQ(db.count("SELECT count(*) FROM memops WHERE kind <> '" + memset + "'"), e.memcpys);
        EXPECT_EQ(db.count("SELECT count(*) FROM memops WHERE kind = '" + memset + "'"), e.memsets);
        EXPECT_EQ(db.count("SELECT count(*) FROM comm_ops WHERE kernel_id IN (SELECT id FROM kernels)"), e.nccl);
        EXPECT_EQ(db.count("SELECT count(*) FROM api_calls"), e.apiCalls);
        EXPECT_EQ(db.count("SELECT count(*) FROM nvtx_ranges"), e.ranges);
        EXPECT_EQ(db.count("SELECT count(*) FROM verdicts"), e.kernels);
        auto names = db.column("SELECT DISTINCT n.raw FROM kernels k JOIN kernel_names n ON n.id = k.name_id");
        EXPECT_EQ(std::set<std::string>(names.begin(), names.end()), e.kernelNames);
        EXPECT_EQ(
            db.column("SELECT DISTINCT rank FROM processes"), std::vector<std::string> { std::to_string(e.rank) });
        EXPECT_EQ(
            db.column("SELECT value FROM meta WHERE key = 'source'"), std::vector<std::string> { "import:kineto" });
        EXPECT_EQ(db.count("SELECT count(*) FROM verdicts WHERE verdict = 'communication-bound'"), e.nccl);
        const bool gpu = e.kernels + e.memcpys + e.memsets > 0;
        const bool warned = std::any_of(s.warnings.begin(), s.warnings.end(),
            [](const auto& w) { return w.text.find("no GPU activity in") != std::string::npos; });
        EXPECT_EQ(warned, !gpu);
        if (e.kernels > 0) {
            EXPECT_EQ(db.count("SELECT start_ns FROM kernels ORDER BY id LIMIT 1"),
                firstKernelStartNs(ridgeline::testing::gunzipFile(path)));
        }
    }
}

TEST(KinetoImport, NcclArgumentsBecomeCollectivesWithMessageSizes)
{
    TempDir dir;
    const auto path = testDataPath("kineto/nccl_parser_config/nccl_data.json.gz");
    ASSERT_TRUE(collectors::importKineto({ path }, dir.file("s.ridge"), false).ok());
    const auto doc = nlohmann::json::parse(ridgeline::testing::gunzipFile(path));
    std::vector<std::string> expected;
    for (const auto& ev : doc["traceEvents"]) {
        if (ev.value("cat", "") == "kernel" && ev["args"].contains("Collective name")) {
            const auto& a = ev["args"];
            const int size = a["dtype"] == "Float" ? 4 : a["dtype"] == "Long" ? 8 : 0;
            expected.push_back(a["Collective name"].get<std::string>() + " "
                + std::to_string(a["In msg nelems"].get<std::int64_t>() * size) + " " + a["dtype"].get<std::string>()
                + " " + std::to_string(a["Group size"].get<int>()));
        }
    }
    Session db(dir.file("s.ridge"));
    auto rows = db.column("SELECT collective || ' ' || bytes || ' ' || data_type || ' ' || group_size FROM comm_ops "
                          "ORDER BY kernel_id");
    EXPECT_EQ(rows, expected);
    EXPECT_EQ(db.column("SELECT DISTINCT algorithm || '/' || protocol FROM comm_ops WHERE collective = 'allreduce'"),
        std::vector<std::string> { "Ring/LL" });
    EXPECT_EQ(db.column("SELECT DISTINCT process_group FROM comm_ops"),
        std::vector<std::string> { "0 (default_pg) ranks [0, 1]" });
    EXPECT_EQ(db.column("SELECT rank || '/' || world_size FROM processes"), std::vector<std::string> { "0/2" });
}

TEST(KinetoImport, TwoRanksMakeOneSession)
{
    TempDir dir;
    const auto rank0 = testDataPath("kineto/trace_filter/sampled_rank-0.json.gz");
    const auto rank1 = testDataPath("kineto/trace_filter/sampled_rank-1.json.gz");
    auto imported = collectors::importKineto({ rank0, rank1 }, dir.file("s.ridge"), false);
    ASSERT_TRUE(imported.ok()) << imported.error().message;
    EXPECT_EQ(imported.value().ranks, (std::vector<int> { 0, 1 }));
    const ExpectedTrace e0 = expectedFrom(rank0), e1 = expectedFrom(rank1);
    Session db(dir.file("s.ridge"));
    EXPECT_EQ(db.column("SELECT rank || '/' || world_size FROM processes ORDER BY rank"),
        (std::vector<std::string> { "0/128", "1/128" }));
    EXPECT_EQ(db.count("SELECT count(*) FROM kernels"), e0.kernels + e1.kernels);
    EXPECT_EQ(db.count("SELECT count(*) FROM kernels k JOIN processes p ON p.id = k.process_id WHERE p.rank = 1"),
        e1.kernels);
    EXPECT_EQ(db.count("SELECT count(*) FROM comm_ops"), e0.nccl + e1.nccl);
    // Each rank's GPU is its own device in the session.
    EXPECT_EQ(db.count("SELECT count(DISTINCT k.device_id) FROM kernels k"), 2);
    EXPECT_EQ(db.count("SELECT count(DISTINCT k.process_id || ':' || k.device_id) FROM kernels k"), 2);
    EXPECT_EQ(db.column("SELECT value FROM meta WHERE key = 'origin'"),
        std::vector<std::string> { "sampled_rank-0.json.gz, sampled_rank-1.json.gz" });
    const auto steps = db.count("SELECT count(*) FROM nvtx_ranges r JOIN strings s ON s.id = r.name_id "
                                "WHERE s.value LIKE 'ProfilerStep#%'");
    EXPECT_GT(steps, 0);
}

TEST(KinetoImport, EdgeCasesImportWithAWarning)
{
    struct Case {
        std::string file, warning;
    };
    for (const auto& [file, warning] : std::vector<Case> {
             { "distributed_info_unavailable/distributed_info_not_found.json.gz", "has no distributedInfo rank" },
             { "cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", "no GPU activity in" },
             { "amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz", "AMD GPU (ROCm)" },
             { "mtia_inference_trace/mtia_inference_rank_0.json.gz", "MTIA accelerator" },
             { "cupti_profiler/benchmark_result_924719_1679055439_trace.json.gz",
                 "holds 77 CUPTI profiler ranges (the PyTorch profiler's counter mode): they are not imported" } }) {
        SCOPED_TRACE(file);
        TempDir dir;
        auto imported = collectors::importKineto({ testDataPath("kineto/" + file) }, dir.file("s.ridge"), false);
        ASSERT_TRUE(imported.ok()) << imported.error().message;
        const auto& w = imported.value().warnings;
        EXPECT_TRUE(std::any_of(w.begin(), w.end(),
            [&expected = warning](const auto& one) { return one.text.find(expected) != std::string::npos; }));
    }
}

TEST(KinetoImport, BadFilesGiveOneClearError)
{
    TempDir dir;
    const auto text = ridgeline::testing::gunzipFile(
        testDataPath("kineto/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz"));
    const auto gz = ridgeline::testing::readBytes(
        testDataPath("kineto/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz"));
    std::string corrupt = gz;
    for (std::size_t i = corrupt.size() / 2; i < corrupt.size() / 2 + 64; ++i)
        corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5A);
    struct Case {
        std::string name, bytes, words;
    };
    for (const auto& [name, bytes, words] :
        std::vector<Case> { { "truncated.json", text.substr(0, text.size() / 2), "JSON" },
            { "truncated-string.json", text.substr(0, 3000), "JSON" },
            { "malformed.json", R"({"traceEvents": [{"ph": "X",, "cat": "kernel"}]})", "JSON" },
            { "trailing.json", R"({"traceEvents": []} {"x": 1})", "after the trace" },
            { "corrupt.json.gz", corrupt, "gzip" },
            { "truncated.json.gz", gz.substr(0, gz.size() / 2), "truncated gzip" }, { "empty.json", "", "empty" } }) {
        SCOPED_TRACE(name);
        const auto path = dir.file(name);
        ridgeline::testing::writeBytes(path, bytes);
        auto imported = collectors::importKineto({ path }, dir.file("never.ridge"), false);
        ASSERT_FALSE(imported.ok());
        EXPECT_EQ(imported.error().code, core::ErrorCode::BadFile);
        EXPECT_NE(imported.error().message.find(path), std::string::npos) << imported.error().message;
        EXPECT_NE(imported.error().message.find(words), std::string::npos) << imported.error().message;
        EXPECT_EQ(imported.error().message.find('\n'), std::string::npos) << imported.error().message;
        EXPECT_FALSE(std::filesystem::exists(dir.file("never.ridge")));
        EXPECT_FALSE(collectors::parseKinetoBytes(name, bytes).ok());
    }
}

TEST(KinetoImport, ProgressIsReported)
{
    TempDir dir;
    std::vector<double> fractions;
    auto imported = collectors::importKineto(
        { testDataPath("kineto/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz") },
        dir.file("s.ridge"), false, [&](double fraction, std::string_view) { fractions.push_back(fraction); });
    ASSERT_TRUE(imported.ok());
    ASSERT_GE(fractions.size(), 3u);
    EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
    EXPECT_EQ(fractions.back(), 1.0);
}

// Hand-written events (synthetic): rounding of sub-ns decimals, memcpy kinds, capitalised
// categories, runtime correlation, annotations and an NCCL kernel known only by its name.
TEST(KinetoImport, SyntheticEventsMapExactly)
{
    TempDir dir;
    const auto path = dir.file("synthetic.json");
    ridgeline::testing::writeBytes(path, R"json({"distributedInfo": {"rank": 3, "world_size": 4},
 "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "computeMajor": 9, "computeMinor": 0, "numSms": 132}],
 "traceEvents": [
  {"ph": "X", "cat": "Kernel", "name": "k\u00e9rnel", "pid": 0, "tid": 7, "ts": 1.0004, "dur": 2.0005,
   "args": {"device": 0, "stream": 7, "correlation": 42, "grid": [4, 2, 1], "block": [128, 1, 1],
            "registers per thread": 32, "shared memory": 1024}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 99, "tid": 100, "ts": 0.5, "dur": 0.25,
   "args": {"correlation": 42}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": 5, "dur": 1,
   "args": {"device": 0, "stream": 7, "bytes": 4096}},
  {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": 7, "dur": 1,
   "args": {"device": 0, "stream": 7, "bytes": 64}},
  {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
   "pid": 0, "tid": 9, "ts": 10, "dur": 3, "args": {"device": 0, "stream": 9}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#7", "pid": 99, "tid": 100, "ts": -0.0005, "dur": 20},
  {"ph": "M", "name": "thread_name", "pid": 99, "tid": 100, "args": {"name": "python main"}}
 ]})json");
    auto imported = collectors::importKineto({ path }, dir.file("s.ridge"), false);
    ASSERT_TRUE(imported.ok()) << imported.error().message;
    Session db(dir.file("s.ridge"));
    // 1.0004 us -> 1000 ns; 1.0004 + 2.0005 us -> 1000 + 2001 ns.
    EXPECT_EQ(db.column("SELECT start_ns || ' ' || end_ns || ' ' || grid_x || grid_y || grid_z || ' ' || block_x || "
                        "' ' || registers || ' ' || static_shared || ' ' || stream_id || ' ' || correlation_id "
                        "FROM kernels ORDER BY id LIMIT 1"),
        std::vector<std::string> { "1000 3001 421 128 32 1024 7 42" });
    EXPECT_EQ(
        db.column("SELECT raw FROM kernel_names ORDER BY id LIMIT 1"), std::vector<std::string> { "k\xC3\xA9rnel" });
    const std::string htod = core::toString(core::MemOpKind::MemcpyHtoD);
    const std::string memset = core::toString(core::MemOpKind::Memset);
    EXPECT_EQ(
        db.column("SELECT kind || ' ' || src_memory || ' ' || dst_memory || ' ' || bytes FROM memops ORDER BY id"),
        (std::vector<std::string> { htod + " pinned device 4096", memset + "  device 64" }));
    EXPECT_EQ(db.column("SELECT correlation_id || ' ' || start_ns || ' ' || end_ns FROM api_calls"),
        std::vector<std::string> { "42 500 750" });
    EXPECT_EQ(db.column("SELECT collective || ' ' || algorithm || ' ' || protocol || ' ' || bytes FROM comm_ops"),
        std::vector<std::string> { "AllGather Ring LL 0" });
    // -0.5 ns rounds away from zero.
    EXPECT_EQ(db.column("SELECT start_ns FROM nvtx_ranges"), std::vector<std::string> { "-1" });
    EXPECT_EQ(db.column("SELECT rank || '/' || world_size || ' ' || pid FROM processes"),
        std::vector<std::string> { "3/4 99" });
    EXPECT_EQ(db.column("SELECT name FROM threads"), std::vector<std::string> { "python main" });
    EXPECT_EQ(db.column("SELECT name || ' ' || ordinal FROM devices"),
        std::vector<std::string> { "NVIDIA H100 80GB HBM3 0" });
    EXPECT_GT(db.count("SELECT count(*) FROM ceilings WHERE source = 'datasheet'"), 0);
    EXPECT_EQ(db.column("SELECT verdict FROM verdicts ORDER BY kernel_id"),
        (std::vector<std::string> { "unknown", "communication-bound" }));
}

// Keys are read back from where their value starts (issue 38): the same operators and kernel
// whatever the spaces and line breaks around ':' and ',', and keys with escapes (not Ridgeline's)
// skipped. Synthetic events.
TEST(KinetoImport, KeysAreReadWhateverTheSpacing)
{
    const std::string compact = R"json({"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":2,"ts":1,"dur":9,"args":{"External id":5,"Record function id":0,"Input Dims":[[2,3],[3,4]],"Input type":["float","float"],"Ev Idx":4}},
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":3,"dur":2,"args":{"device":0,"stream":7,"correlation":8,"grid":[2,1,1]}}]})json";
    const std::string spaced = R"json({ "traceEvents" : [
{ "we\"ird" : "\"" ,"ph"  :
 "X" , "cat"	:"cpu_op" , "name" : "aten::mm" , "pid" :1 , "tid" : 2, "ts" : 1 , "dur" : 9 , "args" : { "\\" : 0,
 "External id"   :  5 , "Record function id" : 0 , "Input Dims" : [[2,3],[3,4]] , "Input type" : ["float","float"] , "Ev Idx" :4 } } ,
{"ph":"X", "cat" :"kernel","name"
:"gemm","pid":0,"tid":7,"ts":3,"dur":2,"args":{"device" : 0,"stream":  7,"correlation":8,"grid":[2,1,1]}} ] }
)json";
    std::vector<std::string> seen;
    for (const auto& text : { compact, spaced }) {
        TempDir dir;
        const auto path = dir.file("t.json");
        ridgeline::testing::writeBytes(path, text);
        auto imported = collectors::importKineto({ path }, dir.file("s.ridge"), false);
        ASSERT_TRUE(imported.ok()) << imported.error().message;
        EXPECT_EQ(imported.value().operators, 1);
        EXPECT_EQ(imported.value().kernels, 1);
        Session db(dir.file("s.ridge"));
        const auto kernel = db.column("SELECT start_ns || ' ' || end_ns || ' ' || stream_id || ' ' || correlation_id "
                                      "|| ' ' || grid_x FROM kernels");
        const auto strings = db.column("SELECT value FROM strings ORDER BY id");
        ASSERT_EQ(kernel.size(), 1U);
        seen.push_back(kernel.front());
        std::string all;
        for (const auto& s : strings)
            all += s + "|";
        seen.push_back(all);
    }
    EXPECT_EQ(seen[0], "3000 5000 7 8 2");
    EXPECT_EQ(seen[1], seen[3]);
    EXPECT_EQ(seen[0], seen[2]);
    EXPECT_NE(seen[1].find("[[2,3],[3,4]]"), std::string::npos) << seen[1];
    EXPECT_NE(seen[1].find("aten::mm"), std::string::npos) << seen[1];
}

// SPDX-License-Identifier: MIT
// `ridgeline merge`: two synthetic fixture sessions (ranks 0 and 1 on different hosts) joined into
// one; counts add up, ids stay unique and every reference (kernel -> name, device, process;
// metric, verdict, comm op -> kernel) still points at the right row.
#include "fixtures.h"
#include "ridgeline/core/analysis/kernelsummary.h"
#include "ridgeline/core/store/sessionmerge.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace ridgeline;
using ridgeline::testing::TempDir;

namespace {

// The value of a Result as a prvalue: a range-for over `reader.x().value()` would dangle.
template <typename T> T valueOf(core::Result<T> result)
{
    return std::move(result).value();
}

// The rows of a table by their id.
template <typename Row> std::map<std::int64_t, Row> byId(core::Result<std::vector<Row>> rows)
{
    std::map<std::int64_t, Row> out;
    for (auto& row : valueOf(std::move(rows)))
        out[row.id] = std::move(row);
    return out;
}

// The demangled kernel names by id.
std::map<std::int64_t, std::string> demangledNames(core::SessionReader& reader)
{
    std::map<std::int64_t, std::string> names;
    for (const auto& n : valueOf(reader.kernelNames()))
        names[n.id] = n.demangled;
    return names;
}

// What a kernel is, independent of ids: (host, rank, device ordinal, name, stream, start, end).
using KernelKey = std::tuple<std::string, int, int, std::string, std::int64_t, std::int64_t, std::int64_t>;

std::multiset<KernelKey> kernelKeys(core::SessionReader& reader)
{
    const auto devices = byId(reader.devices());
    const auto processes = byId(reader.processes());
    const auto names = demangledNames(reader);
    std::multiset<KernelKey> keys;
    for (const auto& k : valueOf(reader.kernels())) {
        const auto& p = processes.at(k.processId);
        keys.insert(
            { p.host, p.rank, devices.at(k.deviceId).ordinal, names.at(k.nameId), k.streamId, k.startNs, k.endNs });
    }
    return keys;
}

class Merge : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(ridgeline::testing::writeSmallFixture(m_a).ok());
        ASSERT_TRUE(ridgeline::testing::writeSmallFixture(m_b).ok());
        ridgeline::testing::execSql(m_b,
            "UPDATE processes SET rank = 1, world_size = 2, host = 'host-b';"
            "UPDATE devices SET host = 'host-b';");
        ridgeline::testing::execSql(m_a, "UPDATE processes SET world_size = 2;");
    }

    core::SessionReader open(const std::string& path) { return core::SessionReader::open(path).value(); }

    TempDir m_dir;
    std::string m_a = m_dir.file("rank0.ridge");
    std::string m_b = m_dir.file("rank1.ridge");
    std::string m_out = m_dir.file("merged.ridge");
};

} // namespace

TEST_F(Merge, CountsAddUpAndIdsAreUnique)
{
    auto merged = core::mergeSessions({ m_a, m_b }, m_out, false);
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    auto a = open(m_a);
    auto b = open(m_b);
    auto out = open(m_out);
    const auto ca = a.counts().value();
    const auto cb = b.counts().value();
    const auto c = out.counts().value();
    using core::TableCounts;
    const std::pair<const char*, std::int64_t TableCounts::*> summed[]
        = { { "devices", &TableCounts::devices }, { "processes", &TableCounts::processes },
              { "threads", &TableCounts::threads }, { "kernels", &TableCounts::kernels },
              { "metrics", &TableCounts::metrics }, { "memcpys", &TableCounts::memcpys },
              { "memsets", &TableCounts::memsets }, { "apiCalls", &TableCounts::apiCalls },
              { "nvtxRanges", &TableCounts::nvtxRanges }, { "commOps", &TableCounts::commOps },
              { "verdicts", &TableCounts::verdicts }, { "ceilings", &TableCounts::ceilings } };
    for (const auto& [table, count] : summed)
        EXPECT_EQ(c.*count, ca.*count + cb.*count) << table;
    EXPECT_EQ(c.kernelNames, ca.kernelNames) << "the same names in both inputs are stored once";

    // Unique ids: as many as rows.
    EXPECT_EQ(static_cast<std::int64_t>(byId(out.kernels()).size()), c.kernels);
    EXPECT_EQ(static_cast<std::int64_t>(byId(out.devices()).size()), c.devices);
    EXPECT_EQ(static_cast<std::int64_t>(byId(out.processes()).size()), c.processes);
    EXPECT_TRUE(out.integrityProblems().value().empty());
}

TEST_F(Merge, KernelsKeepTheirNamesDevicesAndRanks)
{
    ASSERT_TRUE(core::mergeSessions({ m_a, m_b }, m_out, false).ok());
    auto a = open(m_a);
    auto b = open(m_b);
    auto out = open(m_out);
    auto expected = kernelKeys(a);
    for (const auto& key : kernelKeys(b))
        expected.insert(key);
    EXPECT_EQ(kernelKeys(out), expected);

    std::map<int, std::string> hostOfRank;
    for (const auto& p : valueOf(out.processes()))
        hostOfRank[p.rank] = p.host;
    EXPECT_EQ(hostOfRank, (std::map<int, std::string> { { 0, "fixture-host" }, { 1, "host-b" } }));

    // Comm ops and verdicts still point at the NCCL kernel of their own rank.
    const auto kernels = byId(out.kernels());
    const auto names = demangledNames(out);
    const auto ops = out.commOps().value();
    ASSERT_EQ(ops.size(), 2u);
    std::set<std::int64_t> opProcesses;
    for (const auto& op : ops) {
        ASSERT_TRUE(op.kernelId.has_value());
        const auto& k = kernels.at(*op.kernelId);
        EXPECT_NE(names.at(k.nameId).find("AllReduce"), std::string::npos);
        EXPECT_EQ(k.processId, op.processId);
        EXPECT_EQ(k.deviceId, op.deviceId);
        opProcesses.insert(op.processId);
    }
    EXPECT_EQ(opProcesses.size(), 2u);
    for (const auto& v : valueOf(out.verdicts()))
        EXPECT_NE(names.at(kernels.at(v.kernelId).nameId).find("AllReduce"), std::string::npos);
    // Metrics (with their units) and ceilings follow their kernel and device.
    std::int64_t withMetrics = 0;
    for (const auto& [id, k] : kernels) {
        const auto metrics = out.metrics(id).value();
        if (metrics.empty())
            continue;
        ++withMetrics;
        EXPECT_EQ(metrics.size(), 3u);
        for (const auto& m : metrics)
            EXPECT_FALSE(m.unit.empty()) << m.name;
        EXPECT_NE(names.at(k.nameId).find("vectorAdd"), std::string::npos);
    }
    EXPECT_EQ(withMetrics, 2);
    for (const auto& d : valueOf(out.devices())) {
        const auto ceilings = out.ceilings(d.id).value();
        EXPECT_EQ(ceilings.size(), d.ordinal == 0 ? 2u : 0u) << d.id;
    }
}

TEST_F(Merge, ReportHasTheRowsOfBothAndMetaSaysMerge)
{
    ASSERT_TRUE(core::mergeSessions({ m_a, m_b }, m_out, false).ok());
    auto a = open(m_a);
    auto out = open(m_out);
    const auto rowsA = core::summarizeKernels(a).value();
    const auto rows = core::summarizeKernels(out).value();
    EXPECT_EQ(rows.size(), 2 * rowsA.size()) << "one row per kernel and device, and the devices are distinct";
    std::int64_t launches = 0;
    for (const auto& r : rows)
        launches += r.launches;
    EXPECT_EQ(launches, 16);
    const auto meta = out.meta().value();
    EXPECT_EQ(meta.at("source"), "merge");
    EXPECT_EQ(meta.at("origin"), "rank0.ridge, rank1.ridge");
    EXPECT_EQ(meta.at("status"), "complete");
}

TEST_F(Merge, PartialInputGivesAPartialSession)
{
    ridgeline::testing::execSql(m_b, "UPDATE meta SET value = 'partial' WHERE key = 'status';");
    ASSERT_TRUE(core::mergeSessions({ m_a, m_b }, m_out, false).ok());
    EXPECT_EQ(open(m_out).meta().value().at("status"), "partial");
}

TEST_F(Merge, RefusesToMergeAFileIntoItselfOrTwice)
{
    const auto before = ridgeline::testing::readBytes(m_a);
    auto self = core::mergeSessions({ m_a, m_b }, m_a, true);
    ASSERT_TRUE(self.hasError());
    EXPECT_EQ(self.error().code, core::ErrorCode::InvalidArgument);
    EXPECT_NE(self.error().message.find("itself"), std::string::npos) << self.error().message;
    EXPECT_EQ(ridgeline::testing::readBytes(m_a), before);

    auto twice = core::mergeSessions({ m_a, m_dir.path() + "/./rank0.ridge" }, m_out, false);
    ASSERT_TRUE(twice.hasError());
    EXPECT_EQ(twice.error().code, core::ErrorCode::InvalidArgument);
    EXPECT_TRUE(core::mergeSessions({ m_a }, m_out, false).hasError());
    EXPECT_FALSE(std::filesystem::exists(m_out));

    // A bad input: its name in one error, and no output.
    const auto bad = m_dir.file("bad.ridge");
    ridgeline::testing::writeBytes(bad, "not a session");
    auto failed = core::mergeSessions({ m_a, bad }, m_out, false);
    ASSERT_TRUE(failed.hasError());
    EXPECT_EQ(failed.error().code, core::ErrorCode::BadFile);
    EXPECT_NE(failed.error().message.find(bad), std::string::npos) << failed.error().message;
    EXPECT_FALSE(std::filesystem::exists(m_out));
}

TEST_F(Merge, IdsThatCannotBeRenumberedAreOneClearError)
{
    ridgeline::testing::execSql(m_b, "UPDATE kernels SET id = -id;");
    auto failed = core::mergeSessions({ m_a, m_b }, m_out, false);
    ASSERT_TRUE(failed.hasError());
    EXPECT_EQ(failed.error().code, core::ErrorCode::BadFile);
    EXPECT_NE(failed.error().message.find("out of range"), std::string::npos) << failed.error().message;
    EXPECT_EQ(failed.error().message.rfind(m_b, 0), 0u) << failed.error().message;
    EXPECT_FALSE(std::filesystem::exists(m_out));
}

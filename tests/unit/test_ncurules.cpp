// SPDX-License-Identifier: MIT
// Nsight Compute's own rule results ("ncu estimates", session table ncu_rules, schema v7): read
// from the real reports of tests/data/ncu/nersc-gpp and the real details CSV of
// tests/data/ncu/leleucas, stored, merged, exported, aggregated per kernel, and hostile values.
// Expected texts and speedups are read off the files (`protoc --decode_raw` of ProfileResult
// field 19; the comments give them) and the speedups worked out here from the metrics the same
// reports hold, as ncu's rules work them out (sections/TheoreticalOccupancy.py,
// AchievedOccupancy.py of Nsight Compute 2024.2).
#include "ncu/ncurep.pb.h"
#include "ncu/ncurepinternal.h"
#include "ridgeline/collectors/importers/ncucsvimporter.h"
#include "ridgeline/collectors/importers/ncurepimporter.h"
#include "ridgeline/core/analysis/ncuestimates.h"
#include "ridgeline/core/output/exporters.h"
#include "ridgeline/core/output/report.h"
#include "ridgeline/core/store/sessioncheck.h"
#include "ridgeline/core/store/sessionmerge.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "tempdir.h"
#include "testutil.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

using namespace ridgeline;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace {

std::string ncuReport(int n)
{
    return testDataPath("ncu/nersc-gpp/output" + std::to_string(n) + ".ncu-rep");
}

// A kernel's metric value by name (the report's own numbers, stored by the import).
double ncuMetric(core::SessionReader& reader, std::int64_t kernelId, const std::string& name)
{
    auto metrics = reader.metrics(kernelId);
    EXPECT_TRUE(metrics.ok());
    for (const auto& m : metrics.value())
        if (m.name == name)
            return m.value;
    ADD_FAILURE() << "no " << name << " for kernel " << kernelId;
    return std::nan("");
}

// TheoreticalOccupancy.py without its parent rule (IssueSlotUtilization is not in the reports'
// sections): a local speedup of 1 - theoretical warps / maximum warps per scheduler.
double theoreticalSpeedup(core::SessionReader& reader, std::int64_t kernelId)
{
    return (1
               - ncuMetric(reader, kernelId, "smsp__maximum_warps_avg_per_active_cycle")
                   / ncuMetric(reader, kernelId, "smsp__warps_active.avg.peak_sustained"))
        * 100;
}

// AchievedOccupancy.py: local, 1 - achieved / theoretical occupancy; the reduction kernel's
// theoretical occupancy is 12 of 12 warps (100 %).
double achievedSpeedup(core::SessionReader& reader, std::int64_t kernelId)
{
    const double theoreticalPct = ncuMetric(reader, kernelId, "smsp__maximum_warps_avg_per_active_cycle")
        / ncuMetric(reader, kernelId, "smsp__warps_active.avg.peak_sustained") * 100;
    return (1 - ncuMetric(reader, kernelId, "sm__warps_active.avg.pct_of_peak_sustained_active") / theoreticalPct)
        * 100;
}

core::SessionReader openOrFail(const std::string& path)
{
    auto reader = core::SessionReader::open(path);
    EXPECT_TRUE(reader.ok()) << (reader.ok() ? "" : reader.error().message);
    return std::move(reader).value();
}

} // namespace

// output0.ncu-rep, field 19 of its two results: the main kernel has TheoreticalOccupancy with one
// OPT message (type 4) and a speedup {1: 1, 2: 66.666…}, and an AchievedOccupancy with no body;
// the reduction kernel has AchievedOccupancy with one OPT message and {1: 1, 2: 83.4595…}, and a
// TheoreticalOccupancy with no body. Rules without a message are not stored.
TEST(NcuRules, ReportRulesAreStoredAsTheFileHoldsThem)
{
    TempDir dir;
    const auto session = dir.file("s.ridge");
    ASSERT_TRUE(collectors::importNcuRep({ ncuReport(0) }, session, false).ok());
    auto reader = openOrFail(session);
    auto rules = reader.ncuRules();
    ASSERT_TRUE(rules.ok()) << rules.error().message;
    ASSERT_EQ(rules.value().size(), 2U);

    const auto& theoretical = rules.value()[0];
    EXPECT_EQ(theoretical.kernelId, 1);
    EXPECT_EQ(theoretical.identifier, "TheoreticalOccupancy");
    EXPECT_EQ(theoretical.name, "Theoretical Occupancy");
    EXPECT_EQ(theoretical.section, "Occupancy");
    EXPECT_EQ(theoretical.type, "OPT");
    EXPECT_EQ(theoretical.message,
        "The 4.00 theoretical warps per scheduler this kernel can issue according to its occupancy are below the "
        "hardware maximum of 12. This kernel's theoretical occupancy (33.3%) is limited by the number of required "
        "registers.");
    ASSERT_TRUE(theoretical.speedupPct.has_value());
    // 1 - 4 / 12 = 66.67 %.
    EXPECT_NEAR(*theoretical.speedupPct, theoreticalSpeedup(reader, 1), 1e-9);
    EXPECT_NEAR(*theoretical.speedupPct, 200.0 / 3, 1e-9);
    EXPECT_EQ(theoretical.speedupType, "local");

    const auto& achieved = rules.value()[1];
    EXPECT_EQ(achieved.kernelId, 2);
    EXPECT_EQ(achieved.identifier, "AchievedOccupancy");
    EXPECT_EQ(achieved.name, "Achieved Occupancy");
    EXPECT_EQ(achieved.type, "OPT");
    EXPECT_EQ(achieved.message.rfind("The difference between calculated theoretical (100.0%) and measured achieved "
                                     "occupancy (16.5%) can be the result of warp scheduling overheads",
                  0),
        0U)
        << achieved.message;
    ASSERT_TRUE(achieved.speedupPct.has_value());
    // 1 - 16.5405 % / 100 % = 83.46 %.
    EXPECT_NEAR(*achieved.speedupPct, achievedSpeedup(reader, 2), 1e-9);
    EXPECT_EQ(achieved.speedupType, "local");

    auto ofKernel = reader.ncuRules(2);
    ASSERT_TRUE(ofKernel.ok());
    ASSERT_EQ(ofKernel.value().size(), 1U);
    EXPECT_EQ(ofKernel.value()[0], achieved);
    EXPECT_TRUE(reader.ncuRules(3).value().empty()); // no such kernel
    EXPECT_EQ(reader.counts().value().ncuRules, 2);
}

// output1 and output2 were profiled with 5 theoretical warps per scheduler: 1 - 5 / 12 = 58.33 %;
// their reduction kernels' achieved occupancy differs in the last digits.
TEST(NcuRules, EveryReportsSpeedupsFromItsOwnMetrics)
{
    for (int n : { 0, 1, 2 }) {
        TempDir dir;
        const auto session = dir.file("s.ridge");
        ASSERT_TRUE(collectors::importNcuRep({ ncuReport(n) }, session, false).ok());
        auto reader = openOrFail(session);
        auto rules = reader.ncuRules();
        ASSERT_TRUE(rules.ok());
        ASSERT_EQ(rules.value().size(), 2U) << n;
        EXPECT_EQ(rules.value()[0].identifier, "TheoreticalOccupancy");
        EXPECT_NEAR(*rules.value()[0].speedupPct, theoreticalSpeedup(reader, 1), 1e-9) << n;
        EXPECT_EQ(rules.value()[1].identifier, "AchievedOccupancy");
        EXPECT_NEAR(*rules.value()[1].speedupPct, achievedSpeedup(reader, 2), 1e-9) << n;
    }
}

// The three reports in one session: each kernel name has three launches. Per rule, the speedup is
// the mean weighted by the launches' durations and the message that of the longest launch.
TEST(NcuRules, EstimatesPerKernelAreTimeWeightedOverLaunches)
{
    TempDir dir;
    const auto session = dir.file("s.ridge");
    ASSERT_TRUE(collectors::importNcuRep({ ncuReport(0), ncuReport(1), ncuReport(2) }, session, false).ok());
    auto reader = openOrFail(session);
    auto kernels = reader.kernels();
    ASSERT_TRUE(kernels.ok());
    ASSERT_EQ(kernels.value().size(), 6U);
    auto estimates = core::ncuEstimatesByKernel(reader);
    ASSERT_TRUE(estimates.ok()) << estimates.error().message;
    ASSERT_EQ(estimates.value().size(), 2U);

    std::map<std::string, std::pair<double, double>> sums; // by rule: Σ speedup × ns, Σ ns
    std::map<std::string, std::pair<std::int64_t, std::string>> longest; // by rule: ns, message
    for (const auto& k : kernels.value()) {
        for (const auto& r : reader.ncuRules(k.id).value()) {
            const auto ns = k.durationNs();
            sums[r.identifier].first += *r.speedupPct * static_cast<double>(ns);
            sums[r.identifier].second += static_cast<double>(ns);
            if (ns > longest[r.identifier].first)
                longest[r.identifier] = { ns, r.message };
        }
    }
    for (const auto& k : { kernels.value()[0], kernels.value()[1] }) {
        const auto it = estimates.value().find({ k.nameId, k.deviceId });
        ASSERT_NE(it, estimates.value().end());
        ASSERT_EQ(it->second.size(), 1U);
        const auto& e = it->second[0];
        EXPECT_EQ(e.launches, 3);
        EXPECT_EQ(e.type, "OPT");
        EXPECT_EQ(e.speedupType, "local");
        EXPECT_NEAR(*e.speedupPct, sums.at(e.rule).first / sums.at(e.rule).second, 1e-9);
        EXPECT_EQ(e.message, longest.at(e.rule).second);
        auto one = core::ncuEstimatesOfKernel(reader, k.nameId, k.deviceId);
        ASSERT_TRUE(one.ok());
        EXPECT_EQ(one.value(), it->second);
    }
    // The main kernel: 66.67 % once, 58.33 % twice: the mean lies between.
    const auto main = estimates.value().at({ kernels.value()[0].nameId, kernels.value()[0].deviceId })[0];
    EXPECT_EQ(main.rule, "TheoreticalOccupancy");
    EXPECT_GT(*main.speedupPct, 175.0 / 3);
    EXPECT_LT(*main.speedupPct, 200.0 / 3);
    EXPECT_EQ(core::ncuSpeedupText(main).substr(core::ncuSpeedupText(main).size() - 9), "% (local)");
    auto launch = core::ncuEstimatesOfLaunch(reader, kernels.value()[0].id);
    ASSERT_TRUE(launch.ok());
    ASSERT_EQ(launch.value().size(), 1U);
    EXPECT_EQ(core::ncuSpeedupText(launch.value()[0]), "66.7 % (local)");
}

// The real details CSV with rule columns (leleucas attention-bert_nsight.csv, ncu before 2024: no
// speedup columns): 51 rule rows, Occupancy (WRN) for each of the 26 kernels and
// LaunchConfiguration (WRN) for 25.
TEST(NcuRules, DetailsCsvRuleRowsAreStored)
{
    TempDir dir;
    const auto session = dir.file("s.ridge");
    auto imported = collectors::importNcuCsv(testDataPath("ncu/leleucas/attention-bert_nsight.csv"), session, false);
    ASSERT_TRUE(imported.ok()) << imported.error().message;
    auto reader = openOrFail(session);
    auto rules = reader.ncuRules();
    ASSERT_TRUE(rules.ok());
    ASSERT_EQ(rules.value().size(), 51U);
    std::map<std::string, int> byRule;
    for (const auto& r : rules.value()) {
        ++byRule[r.identifier + "/" + r.type];
        EXPECT_FALSE(r.speedupPct.has_value());
        EXPECT_EQ(r.name, r.identifier); // the CSV gives no display name
    }
    EXPECT_EQ(byRule, (std::map<std::string, int> { { "LaunchConfiguration/WRN", 25 }, { "Occupancy/WRN", 26 } }));
    // ID 0, the first rule row of the file (section "Occupancy").
    const auto& first = rules.value()[0];
    EXPECT_EQ(first.kernelId, 1);
    EXPECT_EQ(first.section, "Occupancy");
    EXPECT_EQ(first.message.rfind("This kernel's theoretical occupancy (62.5%) is limited by the number of required "
                                  "registers",
                  0),
        0U)
        << first.message;
}

// The speedup columns of ncu 2024 and later. No real file of such a CSV is in tests/data, so
// this one is written here by hand, in the layout of tests/data/ncu/details.csv: a local and a
// global estimate, and hostile ones (negative, NaN, above 100 %, text) that are left out.
TEST(NcuRules, DetailsCsvSpeedupColumnsAndBadValues)
{
    TempDir dir;
    const std::string head = "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","
                             "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\","
                             "\"Metric Name\",\"Metric Unit\",\"Metric Value\",\"Rule Name\",\"Rule Type\","
                             "\"Rule Description\",\"Estimated Speedup Type\",\"Estimated Speedup\"\n";
    const std::string id = "\"0\",\"1\",\"app\",\"127.0.0.1\",\"k(int)\",\"1\",\"7\",\"(256, 1, 1)\",\"(64, 1, 1)\","
                           "\"0\",\"9.0\",";
    const auto rule = [&](const std::string& name, const std::string& type, const std::string& speedup) {
        return id + "\"Occupancy\",\"\",\"\",\"\",\"" + name + "\",\"OPT\",\"says " + name + "\",\"" + type + "\",\""
            + speedup + "\"\n";
    };
    const std::string csv = head + id
        + "\"GPU Speed Of Light Throughput\",\"Duration\",\"usecond\",\"10\",\"\",\"\",\"\",\"\",\"\"\n"
        + rule("A", "local", "12.5") + rule("B", "Global", "40") + rule("C", "local", "-5") + rule("D", "local", "nan")
        + rule("E", "global", "150") + rule("F", "", "");
    ridgeline::testing::writeBytes(dir.file("x.csv"), csv);
    const auto session = dir.file("s.ridge");
    auto imported = collectors::importNcuCsv(dir.file("x.csv"), session, false);
    ASSERT_TRUE(imported.ok()) << imported.error().message;
    bool warned = false;
    for (const auto& w : imported.value().warnings)
        warned = warned || w.text.find("3 estimated speedups") != std::string::npos;
    EXPECT_TRUE(warned);
    auto reader = openOrFail(session);
    const auto rules = reader.ncuRules().value();
    ASSERT_EQ(rules.size(), 6U);
    EXPECT_EQ(rules[0].speedupPct, 12.5);
    EXPECT_EQ(rules[0].speedupType, "local");
    EXPECT_EQ(rules[1].speedupPct, 40);
    EXPECT_EQ(rules[1].speedupType, "global");
    for (std::size_t i = 2; i < 6; ++i) {
        EXPECT_FALSE(rules[i].speedupPct.has_value()) << i;
        EXPECT_EQ(rules[i].speedupType, "") << i;
        EXPECT_EQ(rules[i].message, "says " + rules[i].identifier);
    }
}

// A hostile session: rows edited with plain SQL. Texts are cut, speedups that are not 0 to 100 %
// read as none, rules of kernels the session lacks are left out; `check` reports each.
TEST(NcuRules, HostileRowsAreCutLeftOutAndReported)
{
    TempDir dir;
    const auto session = dir.file("s.ridge");
    ASSERT_TRUE(collectors::importNcuRep({ ncuReport(0) }, session, false).ok());
    ridgeline::testing::execSql(session,
        "INSERT INTO ncu_rules VALUES(1, 'Long', '', '', 'OPT', replace(hex(zeroblob(50000)), '0', 'x'), 'local', 10);"
        "INSERT INTO ncu_rules VALUES(1, 'Negative', '', '', 'OPT', 'm', 'local', -3);"
        "INSERT INTO ncu_rules VALUES(1, 'Text', '', '', 'OPT', 'm', 'local', 'NaN');"
        "INSERT INTO ncu_rules VALUES(1, 'Huge', '', '', 'OPT', 'm', 'global', 1e308 * 10);"
        "INSERT INTO ncu_rules VALUES(999, 'Orphan', '', '', 'OPT', 'm', 'local', 5);");
    auto reader = openOrFail(session);
    auto rules = reader.ncuRules(1);
    ASSERT_TRUE(rules.ok()) << rules.error().message;
    ASSERT_EQ(rules.value().size(), 5U); // the file's own rule and four of the five added
    EXPECT_EQ(rules.value()[1].identifier, "Long");
    EXPECT_EQ(rules.value()[1].message.size(), core::kNcuRuleMaxMessage);
    EXPECT_EQ(rules.value()[1].speedupPct, 10);
    for (std::size_t i = 2; i < 5; ++i) {
        EXPECT_FALSE(rules.value()[i].speedupPct.has_value()) << rules.value()[i].identifier;
        EXPECT_EQ(rules.value()[i].speedupType, "");
    }
    EXPECT_TRUE(reader.ncuRules(999).value().empty());
    EXPECT_EQ(reader.ncuRules().value().size(), 6U);
    auto estimates = core::ncuEstimatesByKernel(reader);
    ASSERT_TRUE(estimates.ok());
    EXPECT_EQ(estimates.value().size(), 2U); // the orphan names no kernel

    auto check = core::checkSession(session);
    ASSERT_TRUE(check.ok());
    std::map<std::string, std::int64_t> kinds;
    for (const auto& w : check.value().warnings)
        kinds[w.kind] = w.count;
    EXPECT_EQ(kinds["bad_ncu_rule"], 4); // long text, -3, 'NaN', infinity
    EXPECT_EQ(kinds["dangling_id"], 1); // kernel 999
}

// The writer keeps what a session keeps: texts cut (not inside a UTF-8 character), speedups that
// are not numbers of 0 to 100 % left out.
TEST(NcuRules, WriterCutsTextAndDropsBadSpeedups)
{
    TempDir dir;
    const auto path = dir.file("w.ridge");
    {
        auto writer = core::SessionWriter::create(path);
        ASSERT_TRUE(writer.ok());
        auto& w = writer.value();
        core::Device device;
        device.name = "GPU";
        ASSERT_TRUE(w.addDevice(device).ok());
        core::Process process;
        process.pid = 1;
        ASSERT_TRUE(w.addProcess(process).ok());
        auto name = w.internKernelName("k");
        ASSERT_TRUE(name.ok());
        core::Kernel k;
        k.processId = 1;
        k.nameId = name.value();
        k.endNs = 10;
        k.grid = k.block = { 1, 1, 1 };
        ASSERT_TRUE(w.addKernels(std::span(&k, 1)).ok());
        std::vector<core::NcuRule> rules(4);
        for (auto& r : rules) {
            r.kernelId = 1;
            r.identifier = "R";
            r.speedupType = "local";
        }
        // 4,095 ASCII bytes, then "é" (2 bytes): the cut falls inside it and backs off before it.
        rules[0].message = std::string(core::kNcuRuleMaxMessage - 1, 'a') + "\xC3\xA9";
        rules[0].speedupPct = 100;
        rules[1].speedupPct = -0.5;
        rules[2].speedupPct = std::numeric_limits<double>::quiet_NaN();
        rules[3].speedupPct = 100.5;
        ASSERT_TRUE(w.addNcuRules(rules).ok());
        ASSERT_TRUE(w.finish(core::SessionStatus::Complete).ok());
    }
    auto reader = openOrFail(path);
    const auto rules = reader.ncuRules().value();
    ASSERT_EQ(rules.size(), 4U);
    EXPECT_EQ(rules[0].message, std::string(core::kNcuRuleMaxMessage - 1, 'a'));
    EXPECT_EQ(rules[0].speedupPct, 100);
    for (std::size_t i = 1; i < 4; ++i) {
        EXPECT_FALSE(rules[i].speedupPct.has_value()) << i;
        EXPECT_EQ(rules[i].speedupType, "") << i;
    }
}

// A built report whose rule speedups are hostile: the rules are kept, the speedups left out with a
// warning; a message is kept whole in memory and cut when written.
TEST(NcuRules, ReportSpeedupsThatAreNotPercentagesAreLeftOut)
{
    auto parsedWith = [](double pct) {
        ncurep::ProfileResult result;
        result.set_mangled_name("_Z6kernelv");
        auto* rule = result.add_rule_results();
        rule->set_identifier("R");
        auto* item = rule->mutable_body()->add_items();
        item->mutable_message()->set_text("m");
        item->mutable_message()->set_type(2);
        item->mutable_speedup()->set_type(2);
        item->mutable_speedup()->set_percent(pct);
        const auto bytes = result.SerializeAsString();
        std::string payload(4, '\0');
        for (int i = 0; i < 4; ++i)
            payload[static_cast<std::size_t>(i)] = static_cast<char>((bytes.size() >> (8 * i)) & 0xFF);
        payload += bytes;
        ncurep::BlockHeader header;
        header.set_num_results(1);
        header.set_payload_size(payload.size());
        header.mutable_string_table()->add_strings("gpu__time_duration.sum");
        ncurep::FileHeader fileHeader;
        fileHeader.set_version(7);
        auto frame = [](const std::string& b) {
            std::string out(4, '\0');
            for (int i = 0; i < 4; ++i)
                out[static_cast<std::size_t>(i)] = static_cast<char>((b.size() >> (8 * i)) & 0xFF);
            return out + b;
        };
        const std::string report = std::string("NVR\0", 4) + frame(fileHeader.SerializeAsString())
            + frame(header.SerializeAsString()) + payload;
        collectors::ncu::ParsedProfile profile;
        auto parsed = collectors::ncu::parseReport(report, "x.ncu-rep", profile);
        EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().message);
        return profile;
    };
    const auto good = parsedWith(25);
    ASSERT_EQ(good.kernels.size(), 1U);
    ASSERT_EQ(good.kernels[0].rules.size(), 1U);
    EXPECT_EQ(good.kernels[0].rules[0].type, "WRN");
    EXPECT_EQ(good.kernels[0].rules[0].speedupPct, 25);
    EXPECT_EQ(good.kernels[0].rules[0].speedupType, "global");
    for (double bad :
        { -1.0, 100.01, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity() }) {
        const auto profile = parsedWith(bad);
        ASSERT_EQ(profile.kernels.size(), 1U);
        ASSERT_EQ(profile.kernels[0].rules.size(), 1U);
        EXPECT_FALSE(profile.kernels[0].rules[0].speedupPct.has_value()) << bad;
        bool warned = false;
        for (const auto& w : profile.warnings)
            warned = warned || w.text.find("1 estimated speedups of x.ncu-rep") != std::string::npos;
        EXPECT_TRUE(warned) << bad;
    }
}

// merge keeps every rule on its kernel's new id; export --csv writes ncu_rules.csv; report -f json
// kernel rows carry "ncu_estimates".
TEST(NcuRules, MergeExportAndReportCarryThem)
{
    TempDir dir;
    ASSERT_TRUE(collectors::importNcuRep({ ncuReport(0) }, dir.file("a.ridge"), false).ok());
    ASSERT_TRUE(collectors::importNcuRep({ ncuReport(1) }, dir.file("b.ridge"), false).ok());
    ASSERT_TRUE(core::mergeSessions({ dir.file("a.ridge"), dir.file("b.ridge") }, dir.file("m.ridge"), false).ok());
    auto merged = openOrFail(dir.file("m.ridge"));
    const auto rules = merged.ncuRules().value();
    ASSERT_EQ(rules.size(), 4U);
    std::vector<std::int64_t> ids;
    for (const auto& r : rules)
        ids.push_back(r.kernelId);
    EXPECT_EQ(ids, (std::vector<std::int64_t> { 1, 2, 3, 4 }));
    EXPECT_EQ(rules[2].identifier, "TheoreticalOccupancy");
    EXPECT_NEAR(*rules[2].speedupPct, 175.0 / 3, 1e-9); // output1: 1 - 5 / 12

    auto written = core::writeCsvTables(merged, dir.file("csv"));
    ASSERT_TRUE(written.ok());
    const auto csv = ridgeline::testing::readBytes(dir.file("csv/ncu_rules.csv"));
    EXPECT_EQ(csv.rfind("kernel_id,identifier,name,section,type,message,speedup_type,speedup_pct\n1,"
                        "TheoreticalOccupancy,Theoretical Occupancy,Occupancy,OPT,",
                  0),
        0U)
        << csv;

    auto a = openOrFail(dir.file("a.ridge"));
    auto report = core::buildKernelReport(a);
    ASSERT_TRUE(report.ok());
    std::ostringstream out;
    core::writeKernelReport(out, report.value(), { core::ReportFormat::Json });
    const auto json = nlohmann::json::parse(out.str());
    int withEstimates = 0;
    for (const auto& row : json["kernels"]) {
        if (!row.contains("ncu_estimates"))
            continue;
        ++withEstimates;
        ASSERT_EQ(row["ncu_estimates"].size(), 1U);
        const auto& e = row["ncu_estimates"][0];
        EXPECT_EQ(e["type"], "OPT");
        EXPECT_EQ(e["speedup_type"], "local");
        EXPECT_EQ(e["launches"], 1);
        if (e["rule"] == "TheoreticalOccupancy")
            EXPECT_NEAR(e["speedup_pct"].get<double>(), 200.0 / 3, 1e-9);
        else
            EXPECT_EQ(e["rule"], "AchievedOccupancy");
    }
    EXPECT_EQ(withEstimates, 2);
}

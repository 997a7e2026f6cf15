// SPDX-License-Identifier: MIT
// Sessions with values no writer produces (made by SQL UPDATEs on a valid session): `check` warns
// (exit 0, or 2 with --strict), and report and export neither crash nor hang on any of them.
#include "clirun.h"
#include "fixtures.h"
#include "tempdir.h"
#include "testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <string>

using ridgeline::testing::runCli;
using ridgeline::testing::RunOptions;
using ridgeline::testing::TempDir;

namespace {

class CliBadValues : public ::testing::TestWithParam<const char*> { };

void damage(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    ASSERT_GT(sqlite3_total_changes(db), 0) << sql;
    sqlite3_close(db);
}

// Finished by itself, without a signal, an internal error or the time limit.
void expectCleanExit(const ridgeline::testing::RunResult& r, const std::string& what)
{
    EXPECT_FALSE(r.timedOut) << what;
    EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 2) << what << " exited " << r.exitCode << ": " << r.err;
}

} // namespace

TEST_P(CliBadValues, CheckWarnsAndReportAndExportSurvive)
{
    TempDir dir;
    const auto path = dir.file("bad.ridge");
    ASSERT_TRUE(ridgeline::testing::writeSmallFixture(path).ok());
    damage(path, GetParam());
    RunOptions options;
    options.timeoutSeconds = 30;

    const auto check = runCli({ "check", path }, options);
    EXPECT_EQ(check.exitCode, 0) << check.err;
    EXPECT_NE(check.out.find("values:"), std::string::npos) << check.out;
    EXPECT_EQ(check.out.find("values:        ok"), std::string::npos) << check.out;
    EXPECT_NE(check.err.find("warning"), std::string::npos) << check.err;
    const auto strict = runCli({ "check", "--strict", path }, options);
    EXPECT_EQ(strict.exitCode, 2) << strict.err;
    const auto json = runCli({ "check", "--json", path }, options);
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto doc = nlohmann::json::parse(json.out);
    ASSERT_FALSE(doc["warnings"].empty());
    EXPECT_GT(doc["warnings"][0]["count"].get<std::int64_t>(), 0);

    for (const char* format : { "table", "csv", "json" })
        expectCleanExit(runCli({ "report", path, "--format", format }, options), std::string("report ") + format);
    expectCleanExit(runCli({ "report", path, "--window", "0:1ms" }, options), "report --window");
    expectCleanExit(runCli({ "export", path, "--perfetto", dir.file("trace.json"), "--csv", dir.file("csv"), "--html",
                               dir.file("report.html") },
                        options),
        "export");
}

INSTANTIATE_TEST_SUITE_P(Damage, CliBadValues,
    ::testing::Values("UPDATE kernels SET start_ns = 'abc' WHERE id = 2", "UPDATE kernels SET end_ns = -5 WHERE id = 2",
        "UPDATE kernels SET end_ns = start_ns - 1000",
        "UPDATE kernels SET start_ns = 9223372036854775807, end_ns = -9223372036854775808 WHERE id = 1",
        "UPDATE kernels SET start_ns = -9223372036854775808, end_ns = 9223372036854775807 WHERE id = 1",
        "UPDATE kernels SET start_ns = 1.5e30, end_ns = 'x'",
        "UPDATE comm_ops SET start_ns = -9223372036854775808, end_ns = 9223372036854775807",
        "UPDATE memops SET start_ns = 9223372036854775807, end_ns = -9223372036854775808",
        "UPDATE kernels SET name_id = 999", "UPDATE kernels SET device_id = 77, process_id = 77, stream_id = 'x'",
        "UPDATE api_calls SET name_id = 999, domain_id = -1, start_ns = 'q'",
        "UPDATE nvtx_ranges SET name_id = 999, start_ns = 'q'",
        "UPDATE metric_values SET data = CAST(X'01000000000000F07F' || substr(data, 10) AS BLOB)",
        "UPDATE metric_values SET data = CAST(X'01000000000000F87F' || substr(data, 10) AS BLOB)",
        "UPDATE metric_values SET data = CAST(X'E907' || substr(data, 2) AS BLOB)",
        "UPDATE metric_values SET count = 1000000000", "UPDATE metric_values SET data = zeroblob(1000)",
        "UPDATE metric_values SET kernel_id = 999",
        "UPDATE kernels SET grid_x = 0, grid_y = 0, grid_z = 0, block_x = 0, block_y = -1, block_z = 'a'",
        "UPDATE kernels SET start_ns = 0", "UPDATE memops SET start_ns = 'abc', bytes = -1",
        "UPDATE comm_ops SET start_ns = 5, end_ns = 1, bytes = 'x', kernel_id = 999",
        "UPDATE ceilings SET value = 9e999", "UPDATE verdicts SET utilization = 9e999", "DELETE FROM kernel_names",
        "DELETE FROM devices", "DELETE FROM strings"));

// SPDX-License-Identifier: MIT
// `ridgeline check`'s value rules: each test damages one kind of value in a valid session with
// plain SQL and expects exactly the rows it changed (sqlite3_changes) reported under that kind.
#include "fixtures.h"
#include "ridgeline/core/store/sessioncheck.h"
#include "tempdir.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <string>

using ridgeline::core::checkSession;
using ridgeline::testing::TempDir;

namespace {

int storedSummaries(sqlite3* db)
{
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, "SELECT count(*) FROM stored_summaries", -1, &stmt, nullptr), SQLITE_OK);
    EXPECT_EQ(sqlite3_step(stmt), SQLITE_ROW);
    const int count = sqlite3_column_int(stmt, 0);
    sqlite3_finalize(stmt);
    return count;
}

// Runs `sql` on the file and returns how many rows it changed. An edit of the kernels also makes the
// session forget its stored kernel totals (a trigger, sessionwriter.cpp): not a row of the damage.
int damage(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    const int storedBefore = storedSummaries(db);
    char* message = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message), SQLITE_OK) << (message ? message : "");
    sqlite3_free(message);
    const int changed = sqlite3_total_changes(db) - (storedBefore - storedSummaries(db));
    sqlite3_close(db);
    return changed;
}

std::int64_t countOf(const ridgeline::core::SessionCheck& check, const std::string& kind)
{
    for (const auto& w : check.warnings)
        if (w.kind == kind)
            return w.count;
    return 0;
}

struct Case {
    const char* sql;
    const char* kind;
};

class SessionValues : public ::testing::TestWithParam<Case> { };

} // namespace

TEST(SessionValuesBaseline, AValidFixtureHasNoWarnings)
{
    TempDir dir;
    const auto path = dir.file("small.ridge");
    ASSERT_TRUE(ridgeline::testing::writeSmallFixture(path).ok());
    auto check = checkSession(path);
    ASSERT_TRUE(check.ok()) << check.error().message;
    EXPECT_TRUE(check.value().warnings.empty()) << check.value().warnings.front().what;
}

TEST_P(SessionValues, ReportsEveryDamagedRowUnderItsKind)
{
    TempDir dir;
    const auto path = dir.file("small.ridge");
    ASSERT_TRUE(ridgeline::testing::writeSmallFixture(path).ok());
    const int changed = damage(path, GetParam().sql);
    ASSERT_GT(changed, 0) << "the damage must reach a row for the test to mean anything";
    auto check = checkSession(path);
    ASSERT_TRUE(check.ok()) << check.error().message;
    EXPECT_TRUE(check.value().problems.empty());
    EXPECT_EQ(countOf(check.value(), GetParam().kind), changed) << GetParam().sql;
    for (const auto& w : check.value().warnings) {
        EXPECT_FALSE(w.examples.empty());
        EXPECT_LE(w.examples.size(), 3u);
    }
}

// One row per statement unless said otherwise; the expected count is what SQLite says it changed.
INSTANTIATE_TEST_SUITE_P(Damage, SessionValues,
    ::testing::Values(Case { "UPDATE kernels SET start_ns = 'abc' WHERE id = 2", "non_integer_time" },
        Case { "UPDATE kernels SET end_ns = 2.5e30 WHERE id = 1", "non_integer_time" },
        Case { "UPDATE memops SET end_ns = X'00'", "non_integer_time" },
        Case { "UPDATE kernels SET end_ns = -5 WHERE id = 2", "negative_time" },
        Case { "UPDATE api_calls SET start_ns = -9223372036854775808", "negative_time" },
        Case { "UPDATE kernels SET end_ns = start_ns - 1 WHERE id = 3", "end_before_start" },
        Case { "UPDATE nvtx_ranges SET start_ns = end_ns + 1", "end_before_start" },
        Case { "UPDATE comm_ops SET end_ns = 0, start_ns = 10", "end_before_start" },
        Case { "UPDATE kernels SET name_id = 999 WHERE id = 2", "dangling_id" },
        Case { "UPDATE kernels SET device_id = 77 WHERE id = 1", "dangling_id" },
        Case { "UPDATE memops SET process_id = 77", "dangling_id" },
        Case { "UPDATE api_calls SET name_id = 999", "dangling_id" },
        Case { "UPDATE kernels SET stream_id = 'x' WHERE id = 1", "dangling_id" },
        // Kernel 1's three metric values are packed (core/src/metricblob.h) as 27 bytes: per value
        // its id step (01, 01, 01: ids 1, 2, 3) and 8 bytes of IEEE double, little-endian.
        Case { "UPDATE metric_values SET data = CAST(substr(data, 1, 18) || X'E707' || substr(data, 20) AS BLOB) WHERE "
               "kernel_id = 1",
            "dangling_id" }, // the third id becomes 2 + 999
        Case { "UPDATE metric_values SET kernel_id = 99", "dangling_id" },
        Case { "UPDATE metric_values SET data = CAST(X'01000000000000F07F' || substr(data, 10) AS BLOB)",
            "non_finite_metric" },
        Case { "UPDATE metric_values SET data = CAST(X'01000000000000F87F' || substr(data, 10) AS BLOB)",
            "non_finite_metric" },
        Case { "UPDATE metric_values SET count = count + 1", "damaged_metrics" },
        Case { "UPDATE metric_values SET data = substr(data, 1, 20)", "damaged_metrics" },
        Case { "UPDATE metric_values SET data = 'text'", "damaged_metrics" },
        Case { "UPDATE metric_values SET data = CAST(X'00' || substr(data, 2) AS BLOB)",
            "damaged_metrics" }, // an id step of 0
        Case { "UPDATE ceilings SET value = -9e999", "non_finite_metric" },
        Case { "UPDATE kernels SET grid_x = 0 WHERE id = 1", "zero_sized_grid" },
        Case { "UPDATE kernels SET block_y = -1, grid_z = 'a'", "zero_sized_grid" },
        // Kernel 2 is moved to start inside kernel 1 on the same stream (fixture: 1000–2000, 3000–5000).
        Case { "UPDATE kernels SET start_ns = 1500 WHERE id = 2", "stream_overlap" },
        // finish() recorded the longest kernel (14,000 ns), copy and API call; a shorter or unreadable record
        // would let windowed reads miss ops.
        Case { "UPDATE meta SET value = '13999' WHERE key = 'max_duration_ns.kernels'", "short_max_duration" },
        Case { "UPDATE meta SET value = 'abc' WHERE key = 'max_duration_ns.api_calls'", "short_max_duration" },
        Case { "UPDATE meta SET value = '-5' WHERE key IN ('max_duration_ns.kernels', 'max_duration_ns.memops')",
            "short_max_duration" }));

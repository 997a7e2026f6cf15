// SPDX-License-Identifier: MIT
// sqlite::Database::prepareCached: a statement is compiled once per connection and SQL text, comes
// back reset with no bindings, is never handed out twice at once, sees rows changed since its last
// use, and may outlive its database.
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sqlite.h"
#include "testutil.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

using namespace ridgeline::core;

namespace {

int preparedStatements(sqlite::Database& db)
{
    int count = 0;
    for (sqlite3_stmt* s = sqlite3_next_stmt(db.handle(), nullptr); s != nullptr; s = sqlite3_next_stmt(db.handle(), s))
        ++count;
    return count;
}

sqlite::Database tableOfThree()
{
    auto db = sqlite::Database::openMemory();
    EXPECT_TRUE(db.ok());
    EXPECT_TRUE(db.value().exec("CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1), (2), (3)").ok());
    return std::move(db).value();
}

} // namespace

TEST(StatementCache, ASecondUseReusesTheStatementResetWithoutBindings)
{
    auto db = tableOfThree();
    {
        auto first = db.prepareCached("SELECT ?1, count(*) FROM t");
        ASSERT_TRUE(first.ok());
        first.value()->bind(1, std::int64_t { 42 });
        ASSERT_EQ(first.value()->step().value(), sqlite::Statement::Step::Row);
        EXPECT_EQ(first.value()->columnInt(0), 42);
    } // given back in the middle of its rows
    for (int i = 0; i < 10; ++i) {
        auto again = db.prepareCached("SELECT ?1, count(*) FROM t");
        ASSERT_TRUE(again.ok());
        ASSERT_EQ(again.value()->step().value(), sqlite::Statement::Step::Row);
        EXPECT_TRUE(again.value()->columnIsNull(0)); // the binding of the first use is gone
        EXPECT_EQ(again.value()->columnInt(1), 3);
    }
    EXPECT_EQ(preparedStatements(db), 1);
    EXPECT_EQ(db.queryInt("SELECT count(*) FROM t").value(), 3);
    EXPECT_EQ(db.queryInt("SELECT count(*) FROM t").value(), 3);
    EXPECT_EQ(preparedStatements(db), 2);
}

TEST(StatementCache, NestedUsesOfOneTextGetTwoStatements)
{
    auto db = tableOfThree();
    auto outer = db.prepareCached("SELECT x FROM t ORDER BY x");
    ASSERT_TRUE(outer.ok());
    ASSERT_EQ(outer.value()->step().value(), sqlite::Statement::Step::Row);
    {
        auto inner = db.prepareCached("SELECT x FROM t ORDER BY x");
        ASSERT_TRUE(inner.ok());
        ASSERT_EQ(inner.value()->step().value(), sqlite::Statement::Step::Row);
        EXPECT_EQ(inner.value()->columnInt(0), 1);
    }
    ASSERT_EQ(outer.value()->step().value(), sqlite::Statement::Step::Row);
    EXPECT_EQ(outer.value()->columnInt(0), 2); // the outer one kept its place
    EXPECT_EQ(preparedStatements(db), 2);
}

TEST(StatementCache, ACachedStatementSeesChangesAndNewColumns)
{
    auto db = tableOfThree();
    EXPECT_EQ(db.queryInt("SELECT count(*) FROM t").value(), 3);
    ASSERT_TRUE(db.exec("DELETE FROM t WHERE x > 1").ok());
    EXPECT_EQ(db.queryInt("SELECT count(*) FROM t").value(), 1);
    // A schema change makes SQLite compile the kept statement again, transparently.
    EXPECT_EQ(db.queryInt("SELECT count(*) FROM pragma_table_info('t')").value(), 1);
    ASSERT_TRUE(db.exec("ALTER TABLE t ADD COLUMN y TEXT").ok());
    EXPECT_EQ(db.queryInt("SELECT count(*) FROM pragma_table_info('t')").value(), 2);
}

TEST(StatementCache, AStatementMayOutliveItsDatabaseAndFailuresAreNotKept)
{
    auto db = std::make_unique<sqlite::Database>(tableOfThree());
    auto kept = db->prepareCached("SELECT x FROM t");
    ASSERT_TRUE(kept.ok());
    ASSERT_EQ(kept.value()->step().value(), sqlite::Statement::Step::Row);
    EXPECT_FALSE(db->prepareCached("SELECT nothing FROM nowhere").ok());
    db.reset(); // closes the connection; the statement in use is finalized when it goes (no leak under ASan)
}

TEST(StatementCache, ASessionReaderReadsTheSameAnswerTwice)
{
    auto reader = SessionReader::open(ridgeline::testing::testDataPath("sessions/v3-ncu-raw.ridge"));
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    auto first = reader.value().kernels({});
    auto second = reader.value().kernels({});
    ASSERT_TRUE(first.ok());
    ASSERT_TRUE(second.ok());
    ASSERT_FALSE(first.value().empty());
    ASSERT_EQ(first.value().size(), second.value().size());
    for (std::size_t i = 0; i < first.value().size(); ++i) {
        EXPECT_EQ(first.value()[i].id, second.value()[i].id);
        EXPECT_EQ(first.value()[i].startNs, second.value()[i].startNs);
    }
    EXPECT_EQ(reader.value().counts().value().kernels, static_cast<std::int64_t>(first.value().size()));
}

// The small tables a reader keeps (SessionReader::Impl::RowCache) answer as the query did.
TEST(StatementCache, ACeilingsQueryOfOneDeviceKeepsTheOrderAndOnlyThatDevice)
{
    auto reader = SessionReader::open(ridgeline::testing::testDataPath("sessions/v3-ncu-raw.ridge"));
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    auto all = reader.value().ceilings();
    ASSERT_TRUE(all.ok());
    ASSERT_FALSE(all.value().empty());
    const auto device = all.value().front().deviceId;
    auto ofDevice = reader.value().ceilings(device);
    ASSERT_TRUE(ofDevice.ok());
    EXPECT_EQ(ofDevice.value().size(), all.value().size()); // the file has one device
    for (std::size_t i = 0; i < ofDevice.value().size(); ++i) {
        EXPECT_EQ(ofDevice.value()[i].resource, all.value()[i].resource);
        EXPECT_EQ(ofDevice.value()[i].value, all.value()[i].value);
    }
    EXPECT_TRUE(reader.value().ceilings(device + 1000).value().empty());
    EXPECT_EQ(reader.value().ceilings().value().size(), all.value().size()); // the cached copy is whole
}

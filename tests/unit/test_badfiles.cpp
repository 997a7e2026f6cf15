// SPDX-License-Identifier: MIT
// Opening a session is opening untrusted input: every bad file gets one clear error.
#include "fixtures.h"
#include "ridgeline/core/store/sessioncheck.h"
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionreader.h"
#include "testutil.h"

#include <filesystem>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <random>

using namespace ridgeline::core;
using namespace ridgeline::testing;

namespace {

struct Opened {
    ErrorCode code;
    std::string message;
};

Opened openExpectingError(const std::string& path)
{
    auto reader = SessionReader::open(path);
    EXPECT_TRUE(reader.hasError()) << path << " opened although it should not";
    if (reader.ok())
        return { ErrorCode::Internal, "" };
    const auto& message = reader.error().message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line, please: " << message;
    EXPECT_EQ(message.rfind(path, 0), 0u) << "the message names the file: " << message;
    return { reader.error().code, message };
}

void expectMentions(const Opened& opened, const std::string& words)
{
    EXPECT_NE(opened.message.find(words), std::string::npos) << opened.message;
}

// Opening `path` fails with `code` and a message that mentions `words`.
void expectOpenFails(const std::string& path, ErrorCode code, const std::string& words)
{
    const auto opened = openExpectingError(path);
    EXPECT_EQ(opened.code, code);
    expectMentions(opened, words);
}

class BadFiles : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_good = m_dir.file("good.ridge");
        ASSERT_TRUE(writeSmallFixture(m_good).ok());
    }
    std::string copyOfGood(const std::string& name)
    {
        const auto path = m_dir.file(name);
        std::filesystem::copy_file(m_good, path);
        return path;
    }
    TempDir m_dir;
    std::string m_good;
};

} // namespace

TEST_F(BadFiles, MissingFile)
{
    expectOpenFails(m_dir.file("nope.ridge"), ErrorCode::NotFound, "no such file");
}

TEST_F(BadFiles, Directory)
{
    expectOpenFails(m_dir.path(), ErrorCode::BadFile, "directory");
}

TEST_F(BadFiles, EmptyFile)
{
    const auto path = m_dir.file("empty.ridge");
    writeBytes(path, "");
    expectOpenFails(path, ErrorCode::BadFile, "empty");
}

TEST_F(BadFiles, RandomBytes)
{
    std::mt19937 rng(42);
    std::string bytes(64 * 1024, '\0');
    for (auto& c : bytes)
        c = static_cast<char>(rng());
    const auto path = m_dir.file("random.ridge");
    writeBytes(path, bytes);
    expectOpenFails(path, ErrorCode::BadFile, "not an SQLite database");
}

TEST_F(BadFiles, TextFile)
{
    const auto path = m_dir.file("notes.ridge");
    writeBytes(path, "{\"traceEvents\": []}\n");
    expectMentions(openExpectingError(path), "not a Ridgeline session");
}

TEST_F(BadFiles, HeaderOnly)
{
    const auto path = m_dir.file("short.ridge");
    writeBytes(path, readBytes(m_good).substr(0, 40));
    expectMentions(openExpectingError(path), "truncated");
}

TEST_F(BadFiles, ForeignSqliteDatabase)
{
    const auto path = m_dir.file("other.sqlite");
    execSql(path, "CREATE TABLE t(x); INSERT INTO t VALUES(1);");
    expectOpenFails(path, ErrorCode::BadFile, "not a Ridgeline session");
}

TEST_F(BadFiles, OtherApplicationsDatabase)
{
    const auto path = m_dir.file("other-app.db");
    execSql(path, "PRAGMA application_id = 1836279148; CREATE TABLE t(x);");
    expectMentions(openExpectingError(path), "another application");
}

TEST_F(BadFiles, NewerSchema)
{
    const auto path = copyOfGood("newer.ridge");
    execSql(path, fmt::format("PRAGMA user_version = {};", kSchemaVersion + 1));
    expectOpenFails(path, ErrorCode::NewerSchema, "newer Ridgeline");
}

TEST_F(BadFiles, NoSchemaVersion)
{
    const auto path = copyOfGood("unversioned.ridge");
    execSql(path, "PRAGMA user_version = 0;");
    expectMentions(openExpectingError(path), "unfinished");
}

TEST_F(BadFiles, Truncated)
{
    const auto path = m_dir.file("truncated.ridge");
    const auto bytes = readBytes(m_good);
    writeBytes(path, bytes.substr(0, bytes.size() / 2));
    expectOpenFails(path, ErrorCode::BadFile, "truncated");
}

TEST_F(BadFiles, MissingTable)
{
    const auto path = copyOfGood("missing-table.ridge");
    execSql(path, "DROP TABLE nvtx_ranges;");
    expectMentions(openExpectingError(path), "no table 'nvtx_ranges'");
}

TEST_F(BadFiles, MissingColumn)
{
    const auto path = copyOfGood("missing-column.ridge");
    execSql(path, "ALTER TABLE kernels DROP COLUMN graph_id;");
    const auto message = openExpectingError(path);
    expectMentions(message, "lacks columns");
    expectMentions(message, "graph_id");
}

// A virtual table runs its module's code when read: refused by name, before any of its columns is
// asked for (that would fail on a module this build lacks, or run one it has).
TEST_F(BadFiles, TableReplacedByAVirtualTable)
{
    const auto path = copyOfGood("virtual.ridge");
    execSql(path,
        "ALTER TABLE kernels RENAME TO k2; CREATE TABLE kernels(x); PRAGMA writable_schema = ON;"
        "UPDATE sqlite_schema SET sql = 'CREATE VIRTUAL TABLE kernels USING no_such_module(x)', rootpage = 0 "
        "WHERE name = 'kernels';");
    expectMentions(openExpectingError(path), "'kernels' in the session is a virtual table");
}

TEST_F(BadFiles, TableReplacedByAView)
{
    const auto path = copyOfGood("view.ridge");
    execSql(path, "ALTER TABLE kernels RENAME TO k2; CREATE VIEW kernels AS SELECT * FROM k2;");
    expectMentions(openExpectingError(path), "is a view");
}

TEST_F(BadFiles, TriggersInTheFileNeverRun)
{
    // A hostile file whose trigger would write into the file (and any table it can reach).
    const auto path = copyOfGood("trigger.ridge");
    execSql(path,
        "CREATE TABLE pwned(x); CREATE TRIGGER evil AFTER INSERT ON meta BEGIN INSERT INTO pwned VALUES(1); END;");
    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok()) << reader.error().message; // extra objects are ignored, never run
    EXPECT_TRUE(reader.value().meta().ok());
    // Read-only: nothing in the file changed by opening and reading it.
    const auto before = readBytes(path);
    EXPECT_TRUE(reader.value().counts().ok());
    EXPECT_EQ(readBytes(path), before);
}

TEST_F(BadFiles, CorruptPagesAreFoundByCheckNotCrashes)
{
    const auto path = m_dir.file("corrupt.ridge");
    auto bytes = readBytes(m_good);
    const std::size_t pageSize = 4096;
    ASSERT_GT(bytes.size(), 4 * pageSize);
    // Scribble over every page but the first (the schema): b-tree pages become garbage.
    std::mt19937 rng(7);
    for (std::size_t i = pageSize; i < bytes.size(); ++i) {
        if (i % pageSize < 200)
            bytes[i] = static_cast<char>(rng());
    }
    writeBytes(path, bytes);
    auto reader = SessionReader::open(path);
    if (reader.hasError()) {
        EXPECT_EQ(reader.error().code, ErrorCode::BadFile) << reader.error().message;
        return;
    }
    // Every query either answers or fails cleanly.
    (void)reader.value().counts();
    (void)reader.value().kernels();
    (void)reader.value().meta();
    auto check = checkSession(path);
    if (check.ok())
        EXPECT_FALSE(check.value().problems.empty());
    else
        EXPECT_EQ(check.error().code, ErrorCode::BadFile);
}

TEST_F(BadFiles, HostileValuesAreReadSafely)
{
    // Wrong types, NULLs and absurd numbers where the schema expects sane integers.
    const auto path = copyOfGood("hostile-values.ridge");
    execSql(path,
        "UPDATE kernels SET start_ns = 'yesterday', end_ns = 'never', grid_x = -1 WHERE id = 1;"
        "UPDATE kernels SET start_ns = -9223372036854775808, end_ns = 9223372036854775807 WHERE id = 2;"
        "UPDATE devices SET name = x'ff00fe' WHERE id = 0;"
        "INSERT OR REPLACE INTO meta VALUES('status', x'ff');");
    auto reader = SessionReader::open(path);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    EXPECT_TRUE(reader.value().kernels().ok());
    EXPECT_TRUE(reader.value().kernels({ 0, std::nullopt, 1000, 2000 }).ok());
    EXPECT_TRUE(reader.value().devices().ok());
    EXPECT_TRUE(reader.value().gpuTimeSpan().ok());
}

TEST_F(BadFiles, CheckReportsEachBadFileAsAnError)
{
    const auto empty = m_dir.file("e.ridge");
    writeBytes(empty, "");
    for (const auto& path : { empty, m_dir.file("missing.ridge") }) {
        auto check = checkSession(path);
        ASSERT_TRUE(check.hasError());
    }
    auto good = checkSession(m_good);
    ASSERT_TRUE(good.ok()) << good.error().message;
    EXPECT_TRUE(good.value().problems.empty());
    EXPECT_TRUE(good.value().complete());
}

// SPDX-License-Identifier: MIT
// The row editor of the row fuzz targets (tests/fuzz/rowedits.h): each kind of edit an input can
// encode reaches the database, refused edits are skipped, and a roll-back restores every row; and
// SessionReader::openEditableImage, which those targets read edited sessions through; and the seed
// sessions they start from.
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sqlite.h"
#include "rowedits.h"
#include "testutil.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <limits>
#include <string>

using namespace ridgeline;
using core::sqlite::Database;

namespace {

Database table()
{
    auto db = Database::openMemory();
    EXPECT_TRUE(db.ok());
    EXPECT_TRUE(db.value()
                    .exec("CREATE TABLE a (id INTEGER PRIMARY KEY, x, y NOT NULL);"
                          "INSERT INTO a VALUES (1, 10, 'one'), (2, 20, 'two');")
                    .ok());
    return std::move(db).value();
}

std::string text(Database& db, const std::string& sql)
{
    auto s = db.prepare(sql);
    EXPECT_TRUE(s.ok());
    auto step = s.value().step();
    EXPECT_TRUE(step.ok() && step.value() == core::sqlite::Statement::Step::Row) << sql;
    return s.value().columnText(0);
}

// Applies the edit list `bytes` (rowedits.h: op, table, row lo, row hi, column, value...).
int edit(fuzz::RowEditor& editor, const std::string& bytes)
{
    fuzz::InputBytes input(bytes);
    return editor.apply(input);
}

const std::string kOriginal = "1|10|one,2|20|two";
const char* kRows = "SELECT group_concat(id || '|' || quote(x) || '|' || y, ',') FROM (SELECT * FROM a ORDER BY id)";

} // namespace

TEST(RowEdits, SetsACellToAnEdgeValueAndRollsBack)
{
    auto db = table();
    fuzz::RowEditor editor(db);
    ASSERT_EQ(editor.tableCount(), 1U);
    // Set (op 0) table 0, row 1 (the second), column 1 (x) to edge integer 4: INT64_MIN.
    EXPECT_EQ(edit(editor, std::string("\x00\x00\x01\x00\x01\x03\x04", 7)), 1);
    EXPECT_EQ(text(db, "SELECT x FROM a WHERE id = 2"), std::to_string(std::numeric_limits<std::int64_t>::min()));
    editor.rollBack();
    EXPECT_EQ(text(db, kRows), kOriginal);
}

TEST(RowEdits, ValueKinds)
{
    auto db = table();
    fuzz::RowEditor editor(db);
    // NaN (edge double 0) arrives as NULL; text from the input; long texts; a blob; another cell.
    EXPECT_EQ(edit(editor, std::string("\x00\x00\x00\x00\x01\x05\x00", 7)), 1);
    EXPECT_EQ(text(db, "SELECT quote(x) FROM a WHERE id = 1"), "NULL");
    editor.rollBack();
    EXPECT_EQ(edit(editor,
                  std::string("\x00\x00\x00\x00\x01\x06\x03"
                              "abc",
                      10)),
        1);
    EXPECT_EQ(text(db, "SELECT x FROM a WHERE id = 1"), "abc");
    editor.rollBack();
    // Long texts: 1 MB and 64 KiB for one choice in sixteen each, 4 KiB for the others.
    for (const auto& [choice, length] : { std::pair { '\x00', "1048576" }, std::pair { '\x11', "65536" },
             std::pair { '\x02', "4096" }, std::pair { '\xff', "4096" } }) {
        EXPECT_EQ(edit(editor, std::string("\x00\x00\x00\x00\x01\x08", 6) + choice), 1);
        EXPECT_EQ(text(db, "SELECT length(x) FROM a WHERE id = 1"), length);
        editor.rollBack();
    }
    EXPECT_EQ(edit(editor, std::string("\x00\x00\x00\x00\x01\x09\x02\xff\x00", 9)), 1);
    EXPECT_EQ(text(db, "SELECT quote(x) FROM a WHERE id = 1"), "X'FF00'");
    editor.rollBack();
    // Kind 10: x of row 0 takes y of row 1 (table 0, row 1, column 2).
    EXPECT_EQ(edit(editor, std::string("\x00\x00\x00\x00\x01\x0a\x00\x01\x00\x02", 10)), 1);
    EXPECT_EQ(text(db, "SELECT x FROM a WHERE id = 1"), "two");
    editor.rollBack();
    EXPECT_EQ(text(db, kRows), kOriginal);
}

TEST(RowEdits, DeletesCopiesAndShiftsRows)
{
    auto db = table();
    fuzz::RowEditor editor(db);
    // Delete row 0; copy row 0 (now id 2, under a new key); add delta 2 (-1000) to x of row 0.
    EXPECT_EQ(edit(editor,
                  std::string("\x05\x00\x00\x00\x00"
                              "\x06\x00\x00\x00\x00"
                              "\x07\x00\x00\x00\x01\x02",
                      16)),
        3);
    EXPECT_EQ(text(db, kRows), "2|-980|two,3|20|two");
    editor.rollBack();
    EXPECT_EQ(text(db, kRows), kOriginal);
}

TEST(RowEdits, RefusedEditsAreSkipped)
{
    auto db = table();
    fuzz::RowEditor editor(db);
    // y is NOT NULL: setting it to NULL is refused; the next edit (x = 1 byte integer -3) is made.
    EXPECT_EQ(edit(editor,
                  std::string("\x00\x00\x00\x00\x02\x00"
                              "\x00\x00\x00\x00\x01\x01\xfd",
                      13)),
        1);
    EXPECT_EQ(text(db, kRows), "1|-3|one,2|20|two");
    editor.rollBack();
    EXPECT_EQ(text(db, kRows), kOriginal);
}

TEST(RowEdits, AnEditableSessionReadsItsEdits)
{
    const auto image = ridgeline::testing::readBytes(ridgeline::testing::testDataPath("sessions/v3-ncu-raw.ridge"));
    auto reader = core::SessionReader::openEditableImage(image, "v3.ridge");
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    auto before = reader.value().counts();
    ASSERT_TRUE(before.ok());
    ASSERT_GT(before.value().kernels, 0);
    ASSERT_TRUE(reader.value().database().exec("SAVEPOINT t; DELETE FROM kernels").ok());
    reader.value().forgetCachedRows();
    EXPECT_EQ(reader.value().counts().value().kernels, 0);
    ASSERT_TRUE(reader.value().database().exec("ROLLBACK TO t; RELEASE t").ok());
    EXPECT_EQ(reader.value().counts().value().kernels, 0); // cached until told
    reader.value().forgetCachedRows();
    EXPECT_EQ(reader.value().counts().value().kernels, before.value().kernels);
}

// The seed sessions of the session fuzz targets are at the current schema version: an older seed
// is migrated, in a copy, on every execution that starts from it (a quarter of fuzz_session's time
// while they were v3), so tests/fuzz/make-seeds.sh remakes them when the schema changes.
TEST(FuzzSeeds, SessionsAreAtTheCurrentSchemaVersion)
{
    const auto dir = std::filesystem::path(ridgeline::testing::testDataPath("")) / ".." / "fuzz" / "seeds" / "session";
    int seeds = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const auto image = ridgeline::testing::readBytes(entry.path().string());
        auto reader = core::SessionReader::openImage(image, entry.path().filename().string());
        ASSERT_TRUE(reader.ok()) << reader.error().message;
        EXPECT_EQ(reader.value().fileSchemaVersion(), core::kSchemaVersion) << entry.path();
        ++seeds;
    }
    EXPECT_GE(seeds, 10);
}

// SPDX-License-Identifier: MIT
// Sessions and imports held in memory (what the fuzz targets use): SessionReader::openImage reads
// a file's bytes as open() reads the file, with the same header checks; an in-memory SessionWriter
// writes nothing to disk; the importers' in-memory entry points write the same session as an
// import of the file.
#include "ncu/ncucsvinternal.h"
#include "nsys/nsysinternal.h"
#include "ridgeline/collectors/importers/kinetoimporter.h"
#include "ridgeline/collectors/importers/ncucsvimporter.h"
#include "ridgeline/collectors/importers/nsysimporter.h"
#include "ridgeline/core/store/sessioncheck.h"
#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "ridgeline/core/store/sqlite.h"
#include "testutil.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ridgeline;
using ridgeline::testing::readBytes;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;

namespace {

std::vector<std::int64_t> countsOf(core::SessionReader& reader)
{
    auto counts = reader.counts();
    EXPECT_TRUE(counts.ok()) << (counts.ok() ? "" : counts.error().message);
    if (!counts.ok())
        return {};
    const auto& c = counts.value();
    return { c.devices, c.processes, c.threads, c.kernelNames, c.kernels, c.metrics, c.memcpys, c.memsets, c.apiCalls,
        c.nvtxRanges, c.commOps, c.verdicts, c.ceilings, c.operators };
}

std::vector<std::int64_t> countsOfFile(const std::string& path)
{
    auto reader = core::SessionReader::open(path);
    EXPECT_TRUE(reader.ok()) << (reader.ok() ? "" : reader.error().message);
    return reader.ok() ? countsOf(reader.value()) : std::vector<std::int64_t> {};
}

std::vector<std::int64_t> countsOfImage(const std::string& image)
{
    auto reader = core::SessionReader::openImage(image, "memory.ridge");
    EXPECT_TRUE(reader.ok()) << (reader.ok() ? "" : reader.error().message);
    return reader.ok() ? countsOf(reader.value()) : std::vector<std::int64_t> {};
}

core::SessionWriter memoryWriter(const std::string& name)
{
    core::WriterOptions options;
    options.inMemory = true;
    return core::SessionWriter::create(name, options).value();
}

// A Result's error, or success, as a Status.
template <typename T> core::Status statusOf(const core::Result<T>& result)
{
    return result.ok() ? core::Status {} : core::Status(result.error());
}

// Each importer into a file, and the same input's bytes through its parts into a writer in memory.
core::Status kinetoToFile(const std::string& input, const std::string& output)
{
    return statusOf(collectors::importKineto({ input }, output, false));
}

core::Status kinetoToMemory(core::SessionWriter& writer, const std::string& bytes)
{
    // A window far smaller than the trace: the same events, read 4 KiB at a time.
    return statusOf(collectors::importKinetoBytes(writer, "trace.json.gz", bytes, 4096));
}

core::Status nsysToFile(const std::string& input, const std::string& output)
{
    return statusOf(collectors::importNsysSqlite(input, output, false));
}

core::Status nsysToMemory(core::SessionWriter& writer, const std::string& bytes)
{
    auto db = core::sqlite::Database::openImage(bytes, core::sqlite::Database::Mode::ReadOnly);
    if (db.hasError())
        return db.error();
    auto activity = collectors::nsys::readExport(db.value());
    if (activity.hasError())
        return activity.error();
    return statusOf(collectors::nsys::writeActivity(writer, activity.value(), "export.sqlite"));
}

core::Status ncuToFile(const std::string& input, const std::string& output)
{
    return statusOf(collectors::importNcuCsv(input, output, false));
}

core::Status ncuToMemory(core::SessionWriter& writer, const std::string& bytes)
{
    auto csv = collectors::ncu::readCsvBytes(bytes, "profile.csv.gz");
    if (csv.hasError())
        return csv.error();
    const collectors::ncu::ColumnIndex columns(csv.value().header.fields);
    auto profile = columns.isDetailsPage() ? collectors::ncu::readDetailsPage(csv.value())
                                           : collectors::ncu::readRawPage(csv.value());
    if (profile.hasError())
        return profile.error();
    return statusOf(collectors::ncu::writeProfile(writer, csv.value(), std::move(profile).value()));
}

} // namespace

TEST(InMemory, AnImageReadsAsTheFileReads)
{
    for (const auto* name : { "sessions/v1-small.ridge", "sessions/v2-a100-40.ridge" }) {
        SCOPED_TRACE(name);
        const auto path = testDataPath(name);
        auto file = core::SessionReader::open(path);
        auto image = core::SessionReader::openImage(readBytes(path), "sent.ridge");
        ASSERT_TRUE(file.ok()) << file.error().message;
        ASSERT_TRUE(image.ok()) << image.error().message;
        EXPECT_EQ(image.value().path(), "sent.ridge");
        EXPECT_EQ(image.value().fileSchemaVersion(), file.value().fileSchemaVersion());
        EXPECT_LT(image.value().fileSchemaVersion(), core::kSchemaVersion); // migrated in memory, as the file is
        const auto counts = countsOf(file.value());
        EXPECT_GT(counts.at(4), 0); // kernels
        EXPECT_EQ(countsOf(image.value()), counts);
        auto checkFile = core::checkSession(file.value());
        auto checkImage = core::checkSession(image.value());
        ASSERT_TRUE(checkFile.ok() && checkImage.ok());
        EXPECT_TRUE(checkImage.value().problems.empty());
        EXPECT_EQ(checkImage.value().warnings.size(), checkFile.value().warnings.size());
        EXPECT_EQ(checkImage.value().meta, checkFile.value().meta);
    }
}

TEST(InMemory, AnImageGetsTheHeaderChecksOfAFile)
{
    const auto bytes = readBytes(testDataPath("sessions/v2-a100-40.ridge"));
    auto newer = bytes;
    newer[63] = static_cast<char>(core::kSchemaVersion + 1); // user_version, big-endian at offset 60
    auto foreign = bytes;
    foreign[68] = 'X'; // application_id
    struct Case {
        std::string image;
        core::ErrorCode code;
        std::string words;
    };
    for (const auto& [image, code, words] : std::vector<Case> {
             { "", core::ErrorCode::BadFile, "empty" },
             { "just some text, long enough to be a header", core::ErrorCode::BadFile, "not an SQLite database" },
             { bytes.substr(0, 60), core::ErrorCode::BadFile, "truncated" },
             { bytes.substr(0, bytes.size() / 2), core::ErrorCode::BadFile, "truncated" },
             { newer, core::ErrorCode::NewerSchema, "newer Ridgeline" },
             { foreign, core::ErrorCode::BadFile, "another application" },
         }) {
        auto reader = core::SessionReader::openImage(image, "sent.ridge");
        ASSERT_FALSE(reader.ok()) << words;
        EXPECT_EQ(reader.error().code, code) << reader.error().message;
        EXPECT_NE(reader.error().message.find("sent.ridge"), std::string::npos) << reader.error().message;
        EXPECT_NE(reader.error().message.find(words), std::string::npos) << reader.error().message;
    }
}

TEST(InMemory, DatabaseImagesRoundTripAndReadOnlyOnesStayUnchanged)
{
    auto db = core::sqlite::Database::openImage({}, core::sqlite::Database::Mode::ReadWrite);
    ASSERT_TRUE(db.ok()) << db.error().message;
    ASSERT_TRUE(db.value().exec("CREATE TABLE t(x); INSERT INTO t VALUES(42);").ok());
    auto image = db.value().image();
    ASSERT_TRUE(image.ok());
    EXPECT_EQ(image.value().rfind("SQLite format 3", 0), 0u);

    auto copy = core::sqlite::Database::openImage(image.value(), core::sqlite::Database::Mode::ReadOnly);
    ASSERT_TRUE(copy.ok()) << copy.error().message;
    EXPECT_EQ(copy.value().queryInt("SELECT x FROM t").value(), 42);
    EXPECT_FALSE(copy.value().exec("INSERT INTO t VALUES(1)").ok()); // read-only
    // Hardened as a file is: a trigger in the image never runs.
    auto writable = core::sqlite::Database::openImage(image.value(), core::sqlite::Database::Mode::ReadWrite);
    ASSERT_TRUE(writable.ok());
    (void)writable.value().exec("CREATE TRIGGER t1 AFTER INSERT ON t BEGIN DELETE FROM t; END");
    ASSERT_TRUE(writable.value().exec("INSERT INTO t VALUES(1)").ok());
    EXPECT_EQ(writable.value().queryInt("SELECT count(*) FROM t").value(), 2);

    // Bytes that are no database fail when loaded or on first use, with an error.
    auto garbage = core::sqlite::Database::openImage(std::string(4096, 'x'), core::sqlite::Database::Mode::ReadOnly);
    EXPECT_TRUE(garbage.hasError() || garbage.value().queryInt("SELECT count(*) FROM sqlite_schema").hasError());
}

TEST(InMemory, ImportsIntoMemoryWriteTheSessionAFileImportWrites)
{
    TempDir dir;
    const auto here = std::filesystem::current_path();
    struct Case {
        std::string name;
        std::string input;
        std::function<core::Status(const std::string& input, const std::string& output)> toFile;
        std::function<core::Status(core::SessionWriter& writer, const std::string& bytes)> toMemory;
    };
    const std::vector<Case> cases {
        { "kineto", testDataPath("kineto/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz"), kinetoToFile,
            kinetoToMemory },
        { "nsys", testDataPath("nsys/concurrent-profile1.sqlite"), nsysToFile, nsysToMemory },
        { "ncu", testDataPath("ncu/leleucas/linear-nsight1381.csv.gz"), ncuToFile, ncuToMemory },
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        const auto output = dir.file(c.name + ".ridge");
        ASSERT_TRUE(c.toFile(c.input, output).ok());
        const auto name = "never-written-" + c.name + ".ridge";
        auto writer = memoryWriter(name);
        ASSERT_TRUE(c.toMemory(writer, readBytes(c.input)).ok());
        EXPECT_TRUE(writer.image().hasError()); // until finished
        ASSERT_TRUE(writer.finish(core::SessionStatus::Complete).ok());
        EXPECT_FALSE(std::filesystem::exists(here / name));
        EXPECT_FALSE(std::filesystem::exists(dir.file(name)));
        const auto counts = countsOfFile(output);
        EXPECT_GT(counts.at(4) + counts.at(6), 0); // kernels or copies
        auto image = writer.image();
        ASSERT_TRUE(image.ok()) << image.error().message;
        EXPECT_EQ(countsOfImage(image.value()), counts);
        auto reader = core::SessionReader::openImage(image.value(), name);
        ASSERT_TRUE(reader.ok());
        auto check = core::checkSession(reader.value());
        ASSERT_TRUE(check.ok());
        EXPECT_TRUE(check.value().problems.empty());
        EXPECT_TRUE(check.value().complete());
    }
}

// An in-memory writer with its indexes up front (what the fuzz targets use) starts from a copy
// that holds them and finishes with the same indexes as a session written to a file.
TEST(InMemory, IndexesUpFrontComeWithTheCopyAndMatchAFile)
{
    TempDir dir;
    const auto indexNames = [](const std::string& image) {
        auto db = core::sqlite::Database::openImage(image, core::sqlite::Database::Mode::ReadOnly);
        EXPECT_TRUE(db.ok());
        std::vector<std::string> names;
        auto statement = db.value().prepare("SELECT name FROM sqlite_schema WHERE type = 'index' ORDER BY name");
        EXPECT_TRUE(statement.ok());
        while (statement.value().step().value() == core::sqlite::Statement::Step::Row)
            names.push_back(statement.value().columnText(0));
        return names;
    };
    const auto file = dir.file("file.ridge");
    {
        auto writer = core::SessionWriter::create(file).value();
        ASSERT_TRUE(writer.finish(core::SessionStatus::Complete).ok());
    }
    const auto fromFile = indexNames(readBytes(file));
    EXPECT_GE(fromFile.size(), 8u);
    for (const bool upFront : { false, true }) {
        SCOPED_TRACE(upFront);
        core::WriterOptions options;
        options.inMemory = true;
        options.indexesUpFront = upFront;
        auto writer = core::SessionWriter::create("memory.ridge", options).value();
        ASSERT_TRUE(writer.finish(core::SessionStatus::Complete).ok());
        auto image = writer.image();
        ASSERT_TRUE(image.ok()) << image.error().message;
        EXPECT_EQ(indexNames(image.value()), fromFile);
        EXPECT_TRUE(writer.image().ok()); // as often as asked
    }
}

// The fuzz targets import every input into one in-memory writer, reset() between inputs: a reset
// writer must write what a fresh one writes, whatever the import before it left (an open batch, a
// different session), and keep nothing of it.
TEST(InMemory, AResetWriterWritesWhatAFreshOneWrites)
{
    const auto kineto = readBytes(testDataPath("kineto/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz"));
    const auto nsys = readBytes(testDataPath("nsys/concurrent-profile1.sqlite"));
    const auto ncu = readBytes(testDataPath("ncu/leleucas/linear-nsight1381.csv.gz"));
    const auto metaOf = [](const std::string& image) {
        auto reader = core::SessionReader::openImage(image, "memory.ridge");
        EXPECT_TRUE(reader.ok());
        auto meta = reader.value().meta().value();
        meta.erase(core::metakey::CreatedAt); // the second it was made
        return meta;
    };
    const auto fresh = [](const std::function<core::Status(core::SessionWriter&)>& import) {
        auto writer = memoryWriter("fresh.ridge");
        EXPECT_TRUE(import(writer).ok());
        EXPECT_TRUE(writer.finish(core::SessionStatus::Complete).ok());
        return writer.image().value();
    };
    const std::function<core::Status(core::SessionWriter&)> imports[] = {
        [&](core::SessionWriter& w) { return kinetoToMemory(w, kineto); },
        [&](core::SessionWriter& w) { return nsysToMemory(w, nsys); },
        [&](core::SessionWriter& w) { return ncuToMemory(w, ncu); },
    };

    auto reused = memoryWriter("reused.ridge");
    std::size_t largest = 0;
    std::size_t smallest = SIZE_MAX;
    // What a failed import can leave: a batch begun and never committed, rows in it.
    ASSERT_TRUE(reused.beginBatch().ok());
    ASSERT_TRUE(reused.internString("left over").ok());
    for (int round = 0; round < 2; ++round) {
        for (const auto& import : imports) {
            SCOPED_TRACE(round);
            ASSERT_TRUE(reused.reset().ok());
            ASSERT_TRUE(import(reused).ok());
            ASSERT_TRUE(reused.finish(core::SessionStatus::Complete).ok());
            const auto image = reused.image().value();
            largest = std::max(largest, image.size());
            smallest = std::min(smallest, image.size());
            const auto expected = fresh(import);
            EXPECT_EQ(countsOfImage(image), countsOfImage(expected));
            EXPECT_EQ(metaOf(image), metaOf(expected));
            auto reader = core::SessionReader::openImage(image, "reused.ridge");
            ASSERT_TRUE(reader.ok());
            auto check = core::checkSession(reader.value());
            ASSERT_TRUE(check.ok());
            EXPECT_TRUE(check.value().problems.empty());
            EXPECT_TRUE(check.value().warnings.empty());
        }
    }
    // Both ways of emptying ran: rows deleted after a small session, a fresh copy after one of
    // more than 256 pages (the Nsight Systems import, 1.4 MB).
    EXPECT_GT(largest, std::size_t { 1 } << 20);
    EXPECT_LT(smallest, std::size_t { 1 } << 20);
    // Emptied means empty: no row of the last import is left, the metadata is create()'s again.
    ASSERT_TRUE(reused.reset().ok());
    ASSERT_TRUE(reused.internString(std::string(std::size_t { 2 } << 20, 'x')).ok()); // as a hostile input may
    ASSERT_TRUE(reused.reset().ok());
    ASSERT_TRUE(reused.finish(core::SessionStatus::Partial).ok());
    EXPECT_LT(reused.image().value().size(), std::size_t { 1 } << 20); // not the pages the 2 MB string freed
    auto empty = memoryWriter("empty.ridge");
    ASSERT_TRUE(empty.finish(core::SessionStatus::Partial).ok());
    EXPECT_EQ(countsOfImage(reused.image().value()), countsOfImage(empty.image().value()));
    EXPECT_EQ(metaOf(reused.image().value()), metaOf(empty.image().value()));

    TempDir dir;
    auto file = core::SessionWriter::create(dir.file("file.ridge")).value();
    EXPECT_FALSE(file.reset().ok()); // a file's session is never emptied
}

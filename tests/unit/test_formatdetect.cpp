// SPDX-License-Identifier: MIT
#include "fixtures.h"
#include "ridgeline/collectors/importers/formatdetect.h"
#include "ridgeline/core/model/importformats.h"
#include "testutil.h"

#include <gtest/gtest.h>
#include <string>

using namespace ridgeline::collectors;
using namespace std::string_literals;

TEST(FormatDetect, ByContentNotExtension)
{
    EXPECT_EQ(detectFormat("  \n{\"traceEvents\": ["), FileFormat::KinetoJson);
    EXPECT_EQ(detectFormat("\xEF\xBB\xBF[{\"ph\":\"X\"}]"), FileFormat::KinetoJson);
    EXPECT_EQ(detectFormat("\x1F\x8B\x08\x00"s), FileFormat::GzipJson);
    EXPECT_EQ(detectFormat("==PROF== Connected to process 1234\n\"ID\",\"Process ID\""), FileFormat::NsightComputeCsv);
    EXPECT_EQ(detectFormat("\"ID\",\"Process ID\",\"Process Name\""), FileFormat::NsightComputeCsv);
    EXPECT_EQ(detectFormat("hello"), FileFormat::Unknown);
    EXPECT_EQ(detectFormat(""), FileFormat::Unknown);
}

TEST(FormatDetect, SqliteFlavours)
{
    ridgeline::testing::TempDir dir;
    const auto session = dir.file("renamed.json"); // a session under a misleading name
    ASSERT_TRUE(ridgeline::testing::writeSmallFixture(session).ok());
    EXPECT_EQ(detectFileFormat(session).value(), FileFormat::RidgelineSession);

    const auto other = dir.file("other.db");
    ridgeline::testing::execSql(other, "CREATE TABLE t(x);");
    EXPECT_EQ(detectFileFormat(other).value(), FileFormat::OtherSqlite);

    const auto nsys = ridgeline::testing::testDataPath("nsys/concurrent-kernels.sqlite");
    EXPECT_EQ(detectFileFormat(nsys).value(), FileFormat::NsightSystemsSqlite);

    EXPECT_TRUE(detectFileFormat(dir.file("missing")).hasError());
}

// The session a file imports into by default (`import -o DIR/`, the import dialog): the suffixes
// of core::kImportFormats, the longest first, in any case; a lone ".gz"; the PyTorch ".pt.trace".
TEST(ImportFormats, SessionNameForEveryFormatsSuffixes)
{
    using ridgeline::core::sessionNameFor;
    EXPECT_EQ(sessionNameFor("rank-3.pt.trace.json.gz"), "rank-3.ridge");
    EXPECT_EQ(sessionNameFor("rank-3.json"), "rank-3.ridge");
    EXPECT_EQ(sessionNameFor("report.sqlite"), "report.ridge");
    EXPECT_EQ(sessionNameFor("linear-nsight1381.csv.gz"), "linear-nsight1381.ridge");
    EXPECT_EQ(sessionNameFor("profile.CSV"), "profile.ridge");
    EXPECT_EQ(sessionNameFor("output1.ncu-rep"), "output1.ridge");
    EXPECT_EQ(sessionNameFor("trace.gz"), "trace.ridge");
    EXPECT_EQ(sessionNameFor("notes.txt"), "notes.txt.ridge");
    EXPECT_EQ(sessionNameFor(".json"), ".json.ridge"); // a suffix alone is a name, not a suffix
    // Every suffix of every format is taken off, whatever the table holds.
    for (const auto& format : ridgeline::core::kImportFormats)
        for (const std::string_view suffix : format.suffixes)
            EXPECT_EQ(sessionNameFor("x" + std::string(suffix)), "x.ridge") << suffix;
}

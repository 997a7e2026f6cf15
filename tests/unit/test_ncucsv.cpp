// SPDX-License-Identifier: MIT
// Nsight Compute CSV: units, numbers and launch sizes; the file reader's errors and edge cases.
// Importing the fixtures of tests/data/ncu/ is in test_ncucsvimport.cpp.
#include "ridgeline/collectors/importers/formatdetect.h"
#include "ridgeline/collectors/importers/ncucsvimporter.h"
#include "testutil.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <string>

using namespace ridgeline::collectors;
using ridgeline::collectors::ncu::NumberStatus;
using ridgeline::testing::TempDir;
using ridgeline::testing::testDataPath;
using ridgeline::testing::writeBytes;

namespace {

void expectUnit(const char* printed, double factor, const char* unit)
{
    SCOPED_TRACE(printed);
    const auto scale = ncu::normaliseUnit(printed);
    EXPECT_DOUBLE_EQ(scale.factor, factor);
    EXPECT_EQ(scale.unit, unit);
}

double number(const char* text)
{
    const auto parsed = ncu::parseNumber(text);
    EXPECT_EQ(parsed.status, NumberStatus::Ok) << text;
    return parsed.value;
}

} // namespace

TEST(NcuUnits, BytesWithEveryPrefix)
{
    expectUnit("byte", 1, "byte");
    expectUnit("Kbyte", 1e3, "byte");
    expectUnit("Mbyte", 1e6, "byte");
    expectUnit("Gbyte", 1e9, "byte");
    expectUnit("Tbyte", 1e12, "byte");
    expectUnit("Pbyte", 1e15, "byte");
    expectUnit("Kibyte", 1024, "byte");
    expectUnit("Mibyte", 1024.0 * 1024, "byte");
    expectUnit("Gibyte", 1024.0 * 1024 * 1024, "byte");
    expectUnit("Tibyte", 1024.0 * 1024 * 1024 * 1024, "byte");
    expectUnit("Kbyte/block", 1e3, "byte/block");
}

TEST(NcuUnits, TimesInNanoseconds)
{
    expectUnit("nsecond", 1, "ns");
    expectUnit("usecond", 1e3, "ns");
    expectUnit("msecond", 1e6, "ns");
    expectUnit("second", 1e9, "ns");
    // Newer Nsight Compute prints short names.
    expectUnit("ns", 1, "ns");
    expectUnit("us", 1e3, "ns");
    expectUnit("ms", 1e6, "ns");
    expectUnit("s", 1e9, "ns");
}

TEST(NcuUnits, RatesPerSecond)
{
    expectUnit("cycle/nsecond", 1e9, "Hz");
    expectUnit("cycle/usecond", 1e6, "Hz");
    expectUnit("cycle/msecond", 1e3, "Hz");
    expectUnit("cycle/second", 1, "Hz");
    expectUnit("hz", 1, "Hz");
    expectUnit("khz", 1e3, "Hz");
    expectUnit("Mhz", 1e6, "Hz");
    expectUnit("GHz", 1e9, "Hz");
    expectUnit("byte/second", 1, "byte/s");
    expectUnit("Kbyte/second", 1e3, "byte/s");
    expectUnit("Mbyte/second", 1e6, "byte/s");
    expectUnit("Gbyte/second", 1e9, "byte/s");
    expectUnit("Tbyte/second", 1e12, "byte/s");
    expectUnit("byte/nsecond", 1e9, "byte/s");
    expectUnit("Gbyte/usecond", 1e15, "byte/s");
    expectUnit("inst/second", 1, "inst/s");
}

TEST(NcuUnits, PercentCountsAndUnknownUnitsStayAsPrinted)
{
    expectUnit("%", 1, "%");
    expectUnit("", 1, "");
    expectUnit("inst", 1, "inst");
    expectUnit("Kinst", 1e3, "inst");
    expectUnit("cycle", 1, "cycle");
    expectUnit("inst/cycle", 1, "inst/cycle");
    expectUnit("register/thread", 1, "register/thread");
    expectUnit("SM", 1, "SM"); // a count of SMs, not a prefix
    expectUnit("Msomething", 1, "Msomething");
}

TEST(NcuNumbers, ThousandsSeparatorsAndNotAvailable)
{
    EXPECT_EQ(number("1,234,567"), 1234567.0);
    EXPECT_EQ(number("1,215,000,000.00"), 1215000000.0);
    EXPECT_EQ(number("999"), 999.0);
    EXPECT_EQ(number(" 12.25 "), 12.25);
    EXPECT_EQ(number("4.0e-05"), 4.0e-05);
    EXPECT_EQ(number("-3"), -3.0);
    EXPECT_EQ(number("+7"), 7.0);
    EXPECT_EQ(number("0"), 0.0);
    for (const char* missing : { "", "n/a", "N/A", "  " })
        EXPECT_EQ(ncu::parseNumber(missing).status, NumberStatus::Missing) << '"' << missing << '"';
    // Separators only between groups of three; a decimal comma (European locale) is not taken.
    for (const char* text : { "1,23", "12,3456", "1234,567", ",123", "1,", "1.234,56", "1,234.5,6", "(256, 1, 1)",
             "CachePreferNone", "nan", "inf", "12 345", "0x10", "1e", "--1" })
        EXPECT_EQ(ncu::parseNumber(text).status, NumberStatus::NotNumber) << text;
}

TEST(NcuNumbers, LaunchSizes)
{
    EXPECT_EQ(ncu::parseDim3("(256, 1, 1)"), (ridgeline::core::Dim3 { 256, 1, 1 }));
    EXPECT_EQ(ncu::parseDim3("(64, 32, 2)"), (ridgeline::core::Dim3 { 64, 32, 2 }));
    EXPECT_EQ(ncu::parseDim3(" (256,1,1) "), (ridgeline::core::Dim3 { 256, 1, 1 }));
    EXPECT_EQ(ncu::parseDim3("(65,536, 1, 1)"), (ridgeline::core::Dim3 { 65536, 1, 1 }));
    EXPECT_EQ(ncu::parseDim3("(2147483647, 65535, 65535)"), (ridgeline::core::Dim3 { 2147483647, 65535, 65535 }));
    for (const char* bad : { "", "256", "(1, 2)", "(1, 2, 3, 4)", "(0, 1, 1)", "(a, 1, 1)", "(1.5, 1, 1)", "1, 2, 3",
             "(-1, 1, 1)", "(4294967296, 1, 1)" })
        EXPECT_FALSE(ncu::parseDim3(bad).has_value()) << bad;
}

TEST(NcuFormat, CsvAfterTheProgramsOwnOutputIsRecognised)
{
    EXPECT_EQ(detectFormat("Running saxpy\n==PROF== Connected to process 1\n"), FileFormat::NsightComputeCsv);
    EXPECT_EQ(detectFormat("hello\n\"ID\",\"Process ID\",\"Process Name\"\n"), FileFormat::NsightComputeCsv);
    EXPECT_EQ(detectFormat("hello\nworld\n"), FileFormat::Unknown);
    EXPECT_EQ(detectFileFormat(testDataPath("ncu/prof-preamble.csv")).value(), FileFormat::NsightComputeCsv);
    EXPECT_EQ(detectFileFormat(testDataPath("ncu/details.csv")).value(), FileFormat::NsightComputeCsv);
}

// Errors name the file and the line the bad record starts on, and leave no output behind.
class NcuCsvErrors : public ::testing::Test {
protected:
    ridgeline::core::Error importError(const std::string& csv)
    {
        auto result = importNcuCsv(csv, m_dir.file("out.ridge"), false);
        EXPECT_TRUE(result.hasError()) << csv;
        EXPECT_FALSE(std::filesystem::exists(m_dir.file("out.ridge")));
        return result.hasError() ? result.error() : ridgeline::core::Error {};
    }
    void expectBadLine(const std::string& csv, const std::string& where, const std::string& words)
    {
        const auto error = importError(csv);
        EXPECT_EQ(error.code, ridgeline::core::ErrorCode::BadFile) << error.message;
        EXPECT_NE(error.message.find(where), std::string::npos) << error.message;
        EXPECT_NE(error.message.find(words), std::string::npos) << error.message;
        EXPECT_EQ(error.message.find('\n'), std::string::npos) << error.message;
    }
    std::string write(const std::string& name, const std::string& text)
    {
        writeBytes(m_dir.file(name), text);
        return m_dir.file(name);
    }

    TempDir m_dir;
};

TEST_F(NcuCsvErrors, MalformedFixtures)
{
    expectBadLine(testDataPath("ncu/bad-ragged.csv"), "bad-ragged.csv:4: ", "expected 14 fields, found 12");
    expectBadLine(testDataPath("ncu/bad-unterminated-quote.csv"), "bad-unterminated-quote.csv:4: ", "unterminated");
    expectBadLine(testDataPath("ncu/bad-text-after-quote.csv"), "bad-text-after-quote.csv:3: ", "malformed CSV");
    expectBadLine(testDataPath("ncu/bad-header-only.csv"), "bad-header-only.csv:1: ", "no kernels in this file");
    expectBadLine(
        testDataPath("ncu/bad-prof-only.csv"), "bad-prof-only.csv: ", "no kernels in this file (did ncu profile any?)");
}

TEST_F(NcuCsvErrors, FilesThatAreNotNcuCsv)
{
    expectBadLine(write("empty.csv", ""), "empty.csv", "empty");
    expectBadLine(write("other.csv", "a,b,c\n1,2,3\n"), "other.csv", "no header row starting with \"ID\"");
    const auto missing = importError(m_dir.file("missing.csv"));
    EXPECT_EQ(missing.code, ridgeline::core::ErrorCode::NotFound);
    EXPECT_NE(missing.message.find("missing.csv"), std::string::npos);
}

TEST_F(NcuCsvErrors, LineNumbersCountThePreambleAndBlankLines)
{
    const std::string header = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n";
    expectBadLine(write("a.csv",
                      "==PROF== Connected\nprogram output\n" + header + "\"\",\"\",\"nsecond\"\n"
                          + "\"0\",\"k\",\"5\"\n\n\"1\",\"k\"\n"),
        "a.csv:7: ", "expected 3 fields, found 2");
    // A quoted field that runs on: the error names the line its record starts on.
    expectBadLine(write("b.csv", header + "\"0\",\"k(int,\n\"1\",\"k\",\"5\"\n"), "b.csv:2: ", "not closed");
    expectBadLine(write("c.csv", header + "\"zero\",\"k\",\"5\"\n"), "c.csv:2: ", "the kernel ID \"zero\"");
    expectBadLine(
        write("d.csv", "\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\"\n\"0\",\"k\",\"(1, 2)\",\"(32, 1, 1)\"\n"),
        "d.csv:2: ", "Grid Size \"(1, 2)\" is not an (x, y, z) launch size");
    // Details page: a row that stops before "Metric Value".
    expectBadLine(write("e.csv",
                      "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\","
                      "\"Rule Name\"\n\"0\",\"k\",\"S\",\"Duration\",\"ns\"\n"),
        "e.csv:2: ", "expected 7 fields, found 5");
}

TEST_F(NcuCsvErrors, OutputIsNotReplacedUnlessAsked)
{
    const auto out = m_dir.file("exists.ridge");
    writeBytes(out, "keep me");
    const auto csv = testDataPath("ncu/raw-roofline.csv");
    auto refused = importNcuCsv(csv, out, false);
    ASSERT_TRUE(refused.hasError());
    EXPECT_EQ(refused.error().code, ridgeline::core::ErrorCode::InvalidArgument);
    EXPECT_EQ(ridgeline::testing::readBytes(out), "keep me");
    ASSERT_TRUE(importNcuCsv(csv, out, true).ok());
    EXPECT_NE(ridgeline::testing::readBytes(out), "keep me");

    const auto input = write("in.csv", ridgeline::testing::readBytes(csv));
    auto same = importNcuCsv(input, input, true);
    ASSERT_TRUE(same.hasError());
    EXPECT_NE(same.error().message.find("would replace the input"), std::string::npos);
}

TEST_F(NcuCsvErrors, CrlfProfilerMessagesBetweenRecordsAndNoUnitsRow)
{
    const auto csv = write("crlf.csv",
        "\xEF\xBB\xBF\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\r\n\"0\",\"a\",\"5\"\r\n"
        "==WARNING== something the profiler says\r\n\r\n\"1\",\"b, with a comma\",\"6\"\r\n");
    auto summary = importNcuCsv(csv, m_dir.file("out.ridge"), false);
    ASSERT_TRUE(summary.ok()) << summary.error().message;
    EXPECT_EQ(summary.value().kernels, 2);
    EXPECT_EQ(summary.value().metrics, 2);
}

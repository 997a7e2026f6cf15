// SPDX-License-Identifier: MIT
// Hostile and broken .ncu-rep files: each gives BadFile with one sentence, never a crash, a
// hang or a huge allocation. Inputs are cut from the real report or built with the importer's
// own message classes (ncurep.proto), framed by hand here.
#include "ncu/ncurep.pb.h"
#include "ncu/ncurepinternal.h"
#include "ridgeline/collectors/importers/formatdetect.h"
#include "ridgeline/collectors/importers/ncurepimporter.h"
#include "testutil.h"

#include <cstring>
#include <gtest/gtest.h>
#include <string>

using namespace ridgeline;
using ridgeline::testing::readBytes;
using ridgeline::testing::testDataPath;

namespace {

std::string u32(std::uint32_t value)
{
    std::string bytes(4, '\0');
    for (int i = 0; i < 4; ++i)
        bytes[static_cast<std::size_t>(i)] = static_cast<char>((value >> (8 * i)) & 0xFF);
    return bytes;
}

std::string framed(const google::protobuf::MessageLite& message)
{
    const auto bytes = message.SerializeAsString();
    return u32(static_cast<std::uint32_t>(bytes.size())) + bytes;
}

std::string fileStart()
{
    ncurep::FileHeader header;
    header.set_version(7);
    return std::string("NVR\0", 4) + framed(header);
}

ncurep::ProfileResult kernelResult(std::uint64_t nameId)
{
    ncurep::ProfileResult result;
    result.set_mangled_name("_Z6kernelv");
    result.set_demangled_name("kernel()");
    auto* m = result.add_metrics();
    m->set_name_id(nameId);
    m->mutable_value()->set_double_value(1000);
    return result;
}

// One block of results; payloadDelta changes the announced payload size.
std::string block(const std::vector<std::string>& results, bool withTable, std::int64_t payloadDelta = 0)
{
    std::string payload;
    for (const auto& r : results)
        payload += u32(static_cast<std::uint32_t>(r.size())) + r;
    ncurep::BlockHeader header;
    header.set_num_results(results.size());
    header.set_payload_size(static_cast<std::uint64_t>(static_cast<std::int64_t>(payload.size()) + payloadDelta));
    if (withTable)
        header.mutable_string_table()->add_strings("gpu__time_duration.sum");
    return framed(header) + payload;
}

std::string errorOf(const std::string& bytes)
{
    collectors::ncu::ParsedProfile profile;
    auto parsed = collectors::ncu::parseReport(bytes, "x.ncu-rep", profile);
    if (parsed.ok())
        return "<no error>";
    EXPECT_EQ(parsed.error().code, core::ErrorCode::BadFile);
    EXPECT_EQ(parsed.error().message.find('\n'), std::string::npos) << parsed.error().message;
    EXPECT_EQ(parsed.error().message.rfind("x.ncu-rep: ", 0), 0U) << parsed.error().message;
    return parsed.error().message;
}

bool mentions(const std::string& message, const std::string& words)
{
    return message.find(words) != std::string::npos;
}

TEST(NcuRepBad, AWellFormedBuiltReportParses)
{
    // The builder itself is right: the same pieces, unbroken, parse.
    const auto bytes = fileStart() + block({ kernelResult(0).SerializeAsString() }, true);
    collectors::ncu::ParsedProfile profile;
    auto parsed = collectors::ncu::parseReport(bytes, "x.ncu-rep", profile);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    ASSERT_EQ(profile.kernels.size(), 1U);
    EXPECT_EQ(profile.kernels[0].name, "_Z6kernelv");
    EXPECT_EQ(profile.metric(profile.kernels[0], "gpu__time_duration.sum"), 1000);
    EXPECT_EQ(collectors::detectFormat(bytes), collectors::FileFormat::NsightComputeReport);
}

TEST(NcuRepBad, TruncatedAnywhere)
{
    const auto real = readBytes(testDataPath("ncu/nersc-gpp/output1.ncu-rep"));
    // Cut inside the magic, the file header, a block header, a source, the first result, the last result.
    for (const std::size_t size : { std::size_t { 2 }, std::size_t { 7 }, std::size_t { 100 }, std::size_t { 2000 },
             real.size() / 2, real.size() - 1 }) {
        SCOPED_TRACE(size);
        EXPECT_NE(errorOf(real.substr(0, size)), "<no error>");
    }
}

TEST(NcuRepBad, LengthsPastTheEnd)
{
    const auto start = fileStart();
    // A block header "of" 2 GiB and of 4 GiB - 1.
    EXPECT_TRUE(mentions(errorOf(start + u32(0x80000000U) + "abc"), "runs past the end of the file"));
    EXPECT_TRUE(mentions(errorOf(start + u32(0xFFFFFFFFU)), "runs past the end of the file"));
    // A result of 2 GiB inside a payload of 8 bytes.
    ncurep::BlockHeader header;
    header.set_num_results(1);
    header.set_payload_size(8);
    EXPECT_TRUE(
        mentions(errorOf(start + framed(header) + u32(0x80000000U) + "1234"), "runs past the end of the block"));
    // A payload of 2 GiB.
    header.set_payload_size(0x80000000ULL);
    EXPECT_TRUE(mentions(errorOf(start + framed(header) + "1234"), "payload"));
}

TEST(NcuRepBad, CountsNoPayloadCanHold)
{
    ncurep::BlockHeader header;
    header.set_num_results(0xFFFFFFFFFFFFULL); // would loop for days
    header.set_num_sources(0xFFFFFFFFFFFFULL);
    header.set_payload_size(8);
    EXPECT_TRUE(mentions(errorOf(fileStart() + framed(header) + "12345678"), "more than its payload"));
}

TEST(NcuRepBad, PayloadSizeDisagreesWithContent)
{
    const auto result = kernelResult(0).SerializeAsString();
    EXPECT_TRUE(mentions(errorOf(fileStart() + block({ result }, true, -3)), "runs past the end of the block"));
    // Three bytes more than the result: they are left over in the payload (and in the file).
    EXPECT_TRUE(mentions(errorOf(fileStart() + block({ result }, true, 3) + "xyz"), "more than its"));
}

TEST(NcuRepBad, StringIndexOutOfRange)
{
    EXPECT_TRUE(mentions(errorOf(fileStart() + block({ kernelResult(1).SerializeAsString() }, true)),
        "past the end of the string table (1 names in all the report's blocks)"));
    // No table at all.
    EXPECT_TRUE(mentions(errorOf(fileStart() + block({ kernelResult(0).SerializeAsString() }, false)), "(0 names"));
    // A table in a later block counts (names are resolved once the whole file is read), but only
    // one that is there: a result naming index 1 of a report whose two blocks add one name each
    // reads the second block's; index 2 is past the end of both.
    EXPECT_EQ(
        errorOf(fileStart() + block({ kernelResult(1).SerializeAsString() }, true) + block({}, true)), "<no error>");
    EXPECT_TRUE(mentions(errorOf(fileStart() + block({ kernelResult(2).SerializeAsString() }, true) + block({}, true)),
        "(2 names in all the report's blocks)"));
    EXPECT_TRUE(mentions(
        errorOf(fileStart() + block({ kernelResult(0xFFFFFFFFFFULL).SerializeAsString() }, true)), "string table"));
}

TEST(NcuRepBad, ZeroResultsAndNotAReport)
{
    EXPECT_TRUE(mentions(errorOf(fileStart()), "no results"));
    EXPECT_TRUE(mentions(errorOf(fileStart() + block({}, true)), "no results"));
    EXPECT_TRUE(mentions(errorOf("NVX\0rest"), "not an Nsight Compute report"));
    EXPECT_TRUE(mentions(errorOf(""), "not an Nsight Compute report"));
}

TEST(NcuRepBad, GarbageMessages)
{
    // A result whose bytes are no protobuf message (a field number 0 tag).
    EXPECT_TRUE(
        mentions(errorOf(fileStart() + block({ std::string("\x00\x00\x00", 3) }, true)), "not a valid message"));
    // A value that is not a finite number is left out, not stored as NaN.
    auto result = kernelResult(0);
    result.mutable_metrics(0)->mutable_value()->set_double_value(std::numeric_limits<double>::quiet_NaN());
    collectors::ncu::ParsedProfile profile;
    ASSERT_TRUE(
        collectors::ncu::parseReport(fileStart() + block({ result.SerializeAsString() }, true), "x", profile).ok());
    EXPECT_TRUE(profile.kernels.at(0).metrics.empty());
}

TEST(NcuRepBad, MemoryIsBoundedWhateverTheFileSays)
{
    // The limits themselves (a million results, 50 M values) need gigabytes to reach; smaller
    // ones show that they stop the import with one sentence.
    const auto result = kernelResult(0).SerializeAsString();
    const auto bytes = fileStart() + block({ result, result, result }, true);
    collectors::ncu::ParsedProfile profile;
    auto parsed = collectors::ncu::parseReport(bytes, "x.ncu-rep", profile, { 2, 100 });
    ASSERT_FALSE(parsed.ok());
    EXPECT_NE(parsed.error().message.find("more than 2 results"), std::string::npos) << parsed.error().message;
    collectors::ncu::ParsedProfile again;
    parsed = collectors::ncu::parseReport(bytes, "x.ncu-rep", again, { 100, 2 });
    ASSERT_FALSE(parsed.ok());
    EXPECT_NE(parsed.error().message.find("more than 2 metric values"), std::string::npos) << parsed.error().message;
    collectors::ncu::ParsedProfile enough;
    EXPECT_TRUE(collectors::ncu::parseReport(bytes, "x.ncu-rep", enough, { 3, 3 }).ok());
    // Names: every block's count toward one limit (the table has one name; a second block adds one).
    const auto twoTables = bytes + block({}, true);
    collectors::ncu::ParsedProfile names;
    parsed = collectors::ncu::parseReport(twoTables, "x.ncu-rep", names, { 100, 100, 1 });
    ASSERT_FALSE(parsed.ok());
    EXPECT_NE(parsed.error().message.find("more than 1 metric names"), std::string::npos) << parsed.error().message;
    collectors::ncu::ParsedProfile namesEnough;
    EXPECT_TRUE(collectors::ncu::parseReport(twoTables, "x.ncu-rep", namesEnough, { 100, 100, 2 }).ok());
}

TEST(NcuRepBad, ANameGivenTwiceKeepsItsLastValue)
{
    // Metric 0 twice, and a second table entry with the same name (index 1).
    ncurep::ProfileResult result = kernelResult(0);
    auto* again = result.add_metrics();
    again->set_name_id(0);
    again->mutable_value()->set_uint64_value(2000);
    auto* alias = result.add_metrics();
    alias->set_name_id(1);
    alias->mutable_value()->set_float_value(3000);
    ncurep::BlockHeader header;
    header.set_num_results(1);
    header.mutable_string_table()->add_strings("gpu__time_duration.sum");
    header.mutable_string_table()->add_strings("gpu__time_duration.sum");
    const auto bytes = result.SerializeAsString();
    header.set_payload_size(4 + bytes.size());
    collectors::ncu::ParsedProfile profile;
    auto parsed = collectors::ncu::parseReport(
        fileStart() + framed(header) + u32(static_cast<std::uint32_t>(bytes.size())) + bytes, "x.ncu-rep", profile);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    ASSERT_EQ(profile.kernels.at(0).metrics.size(), 1U);
    EXPECT_EQ(profile.metric(profile.kernels.at(0), "gpu__time_duration.sum"), 3000);
}

} // namespace

// SPDX-License-Identifier: MIT
// String tables spread over blocks (issue 35). A report's blocks each append names to one table;
// Nsight Compute 2023.3 (the H800 report, tests/data/ncu/sglang-h800/) writes some of them in blocks
// AFTER the result that uses them. The report here is DERIVED FROM THE REAL
// tests/data/ncu/nersc-gpp/output0.ncu-rep (Nsight Compute 2024.2.1) by re-framing it with the
// importer's own message classes (ncurep.proto): the block of the first result keeps the first
// kKept of its 353 names; the next names go into a new block with no payload right after that
// block (so after the first result, as in the H800 report), and the rest into another new block at
// the end of the file (after the last result). Every other byte is the real file's. It must import
// exactly as the original: same kernels, same value for every name.
#include "ncu/ncurep.pb.h"
#include "ncu/ncurepinternal.h"
#include "testutil.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ridgeline;
using ridgeline::testing::readBytes;
using ridgeline::testing::testDataPath;

namespace ncurepstrings {

constexpr int kKept = 100; // names left in the first result's block
constexpr int kMiddle = 150; // names in the block right after it; the rest go to the end

std::uint32_t readU32(const std::string& bytes, std::size_t at)
{
    std::uint32_t value = 0;
    for (std::size_t i = 0; i < 4; ++i)
        value |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes.at(at + i))) << (8 * i);
    return value;
}

std::string u32(std::size_t value)
{
    std::string bytes(4, '\0');
    for (std::size_t i = 0; i < 4; ++i)
        bytes[i] = static_cast<char>((value >> (8 * i)) & 0xFF);
    return bytes;
}

struct Block {
    ncurep::BlockHeader header;
    std::string rawHeader; // as in the file
    std::string payload;
};

// The file's start (magic and file header) and its blocks, framed as docs/NCU-REP.md says.
std::string splitBlocks(const std::string& bytes, std::vector<Block>& blocks)
{
    std::size_t at = 4;
    at += 4 + readU32(bytes, at);
    const std::string start = bytes.substr(0, at);
    while (at < bytes.size()) {
        Block b;
        const auto length = readU32(bytes, at);
        b.rawHeader = bytes.substr(at + 4, length);
        EXPECT_TRUE(b.header.ParseFromString(b.rawHeader));
        at += 4 + length;
        b.payload = bytes.substr(at, b.header.payload_size());
        at += b.header.payload_size();
        blocks.push_back(std::move(b));
    }
    return start;
}

std::string framed(const std::string& message)
{
    return u32(message.size()) + message;
}

ncurep::BlockHeader namesOnly(const ncurep::StringTable& table, int from, int to)
{
    ncurep::BlockHeader header;
    for (int i = from; i < to; ++i)
        header.mutable_string_table()->add_strings(table.strings(i));
    return header;
}

struct Derived {
    std::string bytes;
    std::size_t lastBlockAt = 0; // where the block added at the end begins
    int names = 0; // in the original table
};

Derived splitTable(const std::string& real)
{
    std::vector<Block> blocks;
    Derived out;
    out.bytes = splitBlocks(real, blocks);
    ncurep::StringTable table;
    for (const auto& b : blocks) {
        if (table.strings_size() > 0 || b.header.string_table().strings_size() == 0) {
            out.bytes += framed(b.rawHeader) + b.payload;
            continue;
        }
        table = b.header.string_table();
        out.names = table.strings_size();
        ncurep::BlockHeader first = b.header;
        first.mutable_string_table()->mutable_strings()->DeleteSubrange(kKept, out.names - kKept);
        out.bytes += framed(first.SerializeAsString()) + b.payload;
        out.bytes += framed(namesOnly(table, kKept, kMiddle).SerializeAsString());
    }
    EXPECT_GT(out.names, kMiddle) << "output0 has a string table";
    // The last names after the last result.
    out.lastBlockAt = out.bytes.size();
    out.bytes += framed(namesOnly(table, kMiddle, out.names).SerializeAsString());
    return out;
}

collectors::ncu::ParsedProfile parsed(const std::string& bytes)
{
    collectors::ncu::ParsedProfile profile;
    auto result = collectors::ncu::parseReport(bytes, "derived.ncu-rep", profile);
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message);
    return profile;
}

TEST(NcuRepStrings, TableSplitAcrossBlocksImportsAsTheOriginal)
{
    const auto real = readBytes(testDataPath("ncu/nersc-gpp/output0.ncu-rep"));
    const auto derived = splitTable(real);
    ASSERT_EQ(derived.names, 353); // docs/NCU-REP.md: the first result's block holds 353 names
    ASSERT_GT(derived.bytes.size(), real.size());

    const auto original = parsed(real);
    const auto split = parsed(derived.bytes);
    ASSERT_EQ(original.kernels.size(), 2U);
    ASSERT_EQ(split.kernels.size(), original.kernels.size());
    for (std::size_t k = 0; k < original.kernels.size(); ++k) {
        SCOPED_TRACE(k);
        const auto& a = original.kernels[k];
        const auto& b = split.kernels[k];
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.grid, b.grid);
        EXPECT_EQ(a.deviceName, b.deviceName);
        EXPECT_EQ(a.smCount, b.smCount);
        ASSERT_EQ(a.metrics.size(), b.metrics.size());
        // Each value under the same name; names beyond kKept are the moved ones (some of them
        // are used: output0's results name indices up to 340).
        int moved = 0;
        for (const auto& [id, value] : a.metrics.values()) {
            const auto& name = original.metricNames.name(id);
            const auto other = split.metric(b, name);
            ASSERT_TRUE(other.has_value()) << name;
            EXPECT_EQ(*other, value) << name;
        }
        for (std::uint32_t id = 0; id < split.metricNames.size(); ++id)
            moved += id >= kKept && b.metrics.contains(id) ? 1 : 0;
        EXPECT_GT(moved, 0) << "the result uses names that now come after it";
    }
}

TEST(NcuRepStrings, NamesThatNeverComeAreOneError)
{
    const auto derived = splitTable(readBytes(testDataPath("ncu/nersc-gpp/output0.ncu-rep")));
    // Without the block at the end, the results name indices past the table (kMiddle names).
    collectors::ncu::ParsedProfile profile;
    auto cut = collectors::ncu::parseReport(derived.bytes.substr(0, derived.lastBlockAt), "x.ncu-rep", profile);
    ASSERT_FALSE(cut.ok());
    EXPECT_NE(cut.error().message.find("past the end of the string table (" + std::to_string(kMiddle)
                  + " names in all the report's blocks)"),
        std::string::npos)
        << cut.error().message;
    // Cut inside that block: the cut is the error, not the names it took with it.
    collectors::ncu::ParsedProfile again;
    auto inside = collectors::ncu::parseReport(derived.bytes.substr(0, derived.lastBlockAt + 10), "x.ncu-rep", again);
    ASSERT_FALSE(inside.ok());
    EXPECT_EQ(inside.error().message.find("string table"), std::string::npos) << inside.error().message;
    EXPECT_NE(inside.error().message.find("runs past the end of the file"), std::string::npos)
        << inside.error().message;
}

} // namespace ncurepstrings

// SPDX-License-Identifier: MIT
// libridgeline-inject.so as a file and as a guest in an ordinary program: what it exports, what it
// needs, and that with no CUDA driver it declines with a sentence instead of crashing.
#include "ridgeline/core/store/sessionreader.h"
#include "tempdir.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <sys/wait.h>

namespace ridgeline::testing {

namespace {

struct CommandRun {
    int status = -1;
    std::string output; // stdout and stderr
};

CommandRun run(const std::string& command)
{
    CommandRun result;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (!pipe)
        return result;
    std::array<char, 4096> buffer {};
    while (fgets(buffer.data(), static_cast<int>(buffer.size()), pipe))
        result.output += buffer.data();
    result.status = pclose(pipe);
    return result;
}

int exitCode(const CommandRun& r)
{
    return WIFEXITED(r.status) ? WEXITSTATUS(r.status) : -1;
}

} // namespace

TEST(InjectLibrary, ExportsOnlyTheInjectionEntryPoints)
{
    const CommandRun nm = run(std::string("nm -D --defined-only ") + RIDGELINE_INJECT_LIB);
    ASSERT_EQ(exitCode(nm), 0) << nm.output;
    std::set<std::string> symbols;
    std::istringstream lines(nm.output);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::string address, type, name;
        fields >> address >> type >> name;
        if (!name.empty())
            symbols.insert(name);
    }
    EXPECT_EQ(symbols, (std::set<std::string> { "InitializeInjection", "InitializeInjectionNvtx2" })) << nm.output;
}

TEST(InjectLibrary, DoesNotNeedTheCudaDriverNorSharedSqliteOrFmt)
{
    const CommandRun ldd = run(std::string("ldd ") + RIDGELINE_INJECT_LIB);
    ASSERT_EQ(exitCode(ldd), 0) << ldd.output;
    EXPECT_EQ(ldd.output.find("libcuda.so"), std::string::npos) << ldd.output;
    EXPECT_EQ(ldd.output.find("libsqlite3"), std::string::npos) << ldd.output;
    EXPECT_EQ(ldd.output.find("libfmt"), std::string::npos) << ldd.output;
    EXPECT_EQ(ldd.output.find("not found"), std::string::npos) << ldd.output; // libcupti found by RPATH
    EXPECT_NE(ldd.output.find("libcupti"), std::string::npos) << ldd.output;
}

TEST(InjectLibrary, WithoutTheDriverItDeclinesAndSaysWhy)
{
    TempDir dir;
    const CommandRun host = run("env -u CUDA_INJECTION64_PATH RIDGELINE_PART_DIR=" + dir.path()
        + " RIDGELINE_SESSION_ID=t1 " + RIDGELINE_INJECT_HOST + " " + RIDGELINE_INJECT_LIB);
    ASSERT_EQ(exitCode(host), 0) << host.output;
    EXPECT_NE(host.output.find("InitializeInjection returned 0 then 0"), std::string::npos) << host.output;
    const std::string sentence = "ridgeline: the NVIDIA CUDA driver (libcuda.so.1) is not loaded in this process";
    EXPECT_NE(host.output.find(sentence), std::string::npos) << host.output;
    EXPECT_EQ(host.output.find(sentence), host.output.rfind(sentence)) << "said once: " << host.output;

    // The part file tells the launcher the same.
    std::vector<std::string> parts;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
        if (entry.path().string().ends_with(".part.ridge"))
            parts.push_back(entry.path().string());
    ASSERT_EQ(parts.size(), 1u) << host.output;
    auto reader = core::SessionReader::open(parts[0]);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    auto meta = reader.value().meta();
    ASSERT_TRUE(meta.ok());
    EXPECT_NE(meta.value()["capture.error"].find("libcuda.so.1) is not loaded"), std::string::npos);
    EXPECT_EQ(meta.value()["capture.session_id"], "t1");
    EXPECT_EQ(meta.value()["capture.dropped_records"], "0");
    EXPECT_EQ(meta.value()["status"], "complete");
    auto counts = reader.value().counts();
    ASSERT_TRUE(counts.ok());
    EXPECT_EQ(counts.value().kernels, 0);
}

TEST(InjectLibrary, WithoutAPartDirectoryItDeclinesAndSaysWhy)
{
    const CommandRun host
        = run(std::string("env -u RIDGELINE_PART_DIR ") + RIDGELINE_INJECT_HOST + " " + RIDGELINE_INJECT_LIB);
    ASSERT_EQ(exitCode(host), 0) << host.output;
    EXPECT_NE(host.output.find("InitializeInjection returned 0 then 0"), std::string::npos) << host.output;
    EXPECT_NE(host.output.find("ridgeline: RIDGELINE_PART_DIR is not set"), std::string::npos) << host.output;
}

TEST(InjectLibrary, AnUnwritablePartDirectoryIsASentence)
{
    const CommandRun host = run(std::string("RIDGELINE_PART_DIR=/nonexistent/ridgeline-parts ") + RIDGELINE_INJECT_HOST
        + " " + RIDGELINE_INJECT_LIB);
    ASSERT_EQ(exitCode(host), 0) << host.output;
    EXPECT_NE(host.output.find("InitializeInjection returned 0 then 0"), std::string::npos) << host.output;
    EXPECT_NE(
        host.output.find("ridgeline: cannot write the part file /nonexistent/ridgeline-parts/"), std::string::npos)
        << host.output;
}

} // namespace ridgeline::testing

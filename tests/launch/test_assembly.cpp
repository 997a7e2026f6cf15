// SPDX-License-Identifier: MIT
// Part files as the injection library leaves them: finished, and never finished (a live WAL file
// whose process died). Recovery must read the log, the merge must keep every committed batch.
#include "kernelbatches.h"
#include "ridgeline/collectors/launch/captureassembly.h"
#include "ridgeline/collectors/launch/partfiles.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "tempdir.h"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ridgeline;
using namespace ridgeline::collectors;
namespace fs = std::filesystem;

namespace {

constexpr const char* kUuid = "GPU-00112233-4455-6677-8899-aabbccddeeff";

// Writes a part in a child process: `kernels` in batches of 50; `finished` calls finish(), else
// the child dies by SIGKILL with the data only in the WAL. Returns the child's pid.
pid_t writePartInChild(const std::string& path, int kernels, bool finished)
{
    const pid_t pid = fork();
    if (pid != 0) {
        int status = 0;
        waitpid(pid, &status, 0);
        return pid;
    }
    core::WriterOptions options;
    options.atomic = false;
    auto writer = core::SessionWriter::create(path, options);
    if (writer.hasError())
        _exit(3);
    auto& w = writer.value();
    core::Device device;
    device.name = "Test GPU";
    device.uuid = kUuid;
    (void)w.addDevice(device);
    core::Process process;
    process.pid = getpid();
    process.host = "testhost";
    auto processId = w.addProcess(process);
    auto name = w.internKernelName("_Z6kernelv");
    if (processId.hasError() || name.hasError())
        _exit(4);
    if (ridgeline::testing::writeKernelBatches(w, processId.value(), name.value(),
            { .count = kernels, .batchSize = 50, .spacingNs = 100, .durationNs = 50, .streamId = 0 })
            .hasError())
        _exit(5);
    if (finished) {
        (void)w.finish(core::SessionStatus::Complete);
        _exit(0);
    }
    kill(getpid(), SIGKILL); // dies mid-capture: no finish, no checkpoint
    _exit(6);
}

std::int64_t kernelsIn(const std::string& path)
{
    auto reader = core::SessionReader::open(path);
    if (reader.hasError())
        return -1;
    auto counts = reader.value().counts();
    return counts.ok() ? counts.value().kernels : -1;
}

} // namespace

TEST(PartRecovery, UnfinishedPartIsReadFromItsWal)
{
    ridgeline::testing::TempDir dir;
    const auto part = dir.file("host-1.part.ridge");
    writePartInChild(part, 120, false);
    ASSERT_TRUE(fs::exists(part + "-wal")) << "the killed writer should leave its WAL";
    ASSERT_GT(fs::file_size(part + "-wal"), 0u);
    // The main file alone does not hold the batches: they are only in the log.
    fs::create_directory(dir.file("mainonly"));
    fs::copy_file(part, dir.file("mainonly/host-1.part.ridge"));
    EXPECT_LT(kernelsIn(dir.file("mainonly/host-1.part.ridge")), 120);

    fs::create_directory(dir.file("recovered"));
    auto copy = recoverPart(part, dir.file("recovered"));
    ASSERT_TRUE(copy.ok()) << copy.error().message;
    EXPECT_FALSE(fs::exists(copy.value() + "-wal"));
    auto summary = summarizePart(copy.value());
    ASSERT_TRUE(summary.ok()) << summary.error().message;
    EXPECT_EQ(summary.value().kernels, 120);
    EXPECT_FALSE(summary.value().complete);
    // The original is left as it was.
    EXPECT_TRUE(fs::exists(part + "-wal"));
}

TEST(PartRecovery, GarbageIsAnErrorNotACrash)
{
    ridgeline::testing::TempDir dir;
    const auto part = dir.file("bad.part.ridge");
    {
        std::ofstream(part) << "not a database at all, just text that is long enough to look like a header";
    }
    fs::create_directory(dir.file("r"));
    auto copy = recoverPart(part, dir.file("r"));
    const bool failed = copy.hasError() || summarizePart(copy.value()).hasError();
    EXPECT_TRUE(failed);
}

TEST(CaptureAssembly, MergesFinishedAndUnfinishedPartsAsPartial)
{
    ridgeline::testing::TempDir dir;
    const auto parts = dir.file("out.ridge.parts");
    fs::create_directory(parts);
    writePartInChild(parts + "/testhost-1.part.ridge", 30, true);
    writePartInChild(parts + "/testhost-2.part.ridge", 70, false);
    ASSERT_EQ(listPartFiles(parts).size(), 2u);

    AssemblyRequest request;
    request.partDir = parts;
    request.output = dir.file("out.ridge");
    request.program.pid = 777;
    request.program.host = "testhost";
    request.program.command = "prog --flag";
    request.program.exitStatus = 0;
    request.sessionId = "s1";
    request.measuredCeilings = [](const std::string& uuid) {
        std::vector<core::Ceiling> c;
        if (uuid == kUuid)
            c.push_back({ 0, "DRAM", 2.5e12, "B/s", core::CeilingSource::Measured, "test" });
        return c;
    };
    auto assembled = assembleCapture(request);
    ASSERT_TRUE(assembled.ok()) << assembled.error().message;
    EXPECT_EQ(assembled.value().parts, 2);
    EXPECT_EQ(assembled.value().kernels, 100);
    EXPECT_FALSE(assembled.value().complete); // one part never finished
    EXPECT_EQ(assembled.value().devicesWithMeasuredCeilings, 2); // each part brought its device
    EXPECT_FALSE(fs::exists(parts)); // removed once the session is published

    auto reader = core::SessionReader::open(request.output);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    auto meta = reader.value().meta().value();
    EXPECT_EQ(meta["status"], "partial");
    EXPECT_EQ(meta["source"], "capture");
    EXPECT_EQ(meta["capture_command"], "prog --flag");
    EXPECT_EQ(meta["capture.session_id"], "s1");
    EXPECT_EQ(reader.value().counts().value().kernels, 100);
    EXPECT_EQ(reader.value().counts().value().verdicts, 100); // analysed
    auto processes = reader.value().processes().value();
    EXPECT_EQ(processes.size(), 3u); // two writers and the program itself
    auto ceilings = reader.value().ceilings().value();
    ASSERT_EQ(ceilings.size(), 2u);
    EXPECT_EQ(ceilings[0].source, core::CeilingSource::Measured);
    EXPECT_DOUBLE_EQ(ceilings[0].value, 2.5e12);
}

TEST(CaptureAssembly, FinishedPartsAndNormalExitAreComplete)
{
    ridgeline::testing::TempDir dir;
    const auto parts = dir.file("o.ridge.parts");
    fs::create_directory(parts);
    const pid_t writer = writePartInChild(parts + "/testhost-5.part.ridge", 10, true);
    AssemblyRequest request;
    request.partDir = parts;
    request.output = dir.file("o.ridge");
    request.program.pid = writer; // the program is the process that wrote the part
    request.program.host = "testhost";
    request.program.exitStatus = 3;
    auto assembled = assembleCapture(request);
    ASSERT_TRUE(assembled.ok()) << assembled.error().message;
    EXPECT_TRUE(assembled.value().complete);
    auto reader = core::SessionReader::open(request.output);
    ASSERT_TRUE(reader.ok());
    EXPECT_EQ(reader.value().meta().value()["status"], "complete");
    auto processes = reader.value().processes().value();
    ASSERT_EQ(processes.size(), 1u); // the part's process row got the exit status
    EXPECT_EQ(processes[0].exitStatus, 3);
}

TEST(CaptureAssembly, ProgramKilledBySignalIsPartialEvenWithFinishedParts)
{
    ridgeline::testing::TempDir dir;
    const auto parts = dir.file("k.ridge.parts");
    fs::create_directory(parts);
    writePartInChild(parts + "/testhost-9.part.ridge", 5, true);
    AssemblyRequest request;
    request.partDir = parts;
    request.output = dir.file("k.ridge");
    request.program.host = "testhost";
    request.program.exitStatus = 137;
    request.programEndedNormally = false;
    auto assembled = assembleCapture(request);
    ASSERT_TRUE(assembled.ok()) << assembled.error().message;
    EXPECT_FALSE(assembled.value().complete);
}

TEST(CaptureAssembly, RefusesToReplaceAnExistingOutputAndKeepsTheParts)
{
    ridgeline::testing::TempDir dir;
    const auto parts = dir.file("e.ridge.parts");
    fs::create_directory(parts);
    writePartInChild(parts + "/testhost-3.part.ridge", 5, true);
    {
        std::ofstream(dir.file("e.ridge")) << "someone else's file";
    }
    AssemblyRequest request;
    request.partDir = parts;
    request.output = dir.file("e.ridge");
    request.program.host = "testhost";
    auto assembled = assembleCapture(request);
    ASSERT_TRUE(assembled.hasError());
    EXPECT_NE(assembled.error().message.find("kept in " + parts), std::string::npos) << assembled.error().message;
    EXPECT_TRUE(fs::exists(parts + "/testhost-3.part.ridge"));
    std::ifstream in(dir.file("e.ridge"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "someone else's file");
}

TEST(CaptureAssembly, SlurmTaskRankAndJobGoToEveryProcessAndTheMeta)
{
    ridgeline::testing::TempDir dir;
    const auto parts = dir.file("r.ridge.parts");
    fs::create_directory(parts);
    writePartInChild(parts + "/testhost-3.part.ridge", 5, true);
    AssemblyRequest request;
    request.partDir = parts;
    request.output = dir.file("r.ridge");
    request.program.pid = 1; // not the part's process: two process rows
    request.program.host = "testhost";
    request.program.exitStatus = 0;
    request.job = { .procId = 3, .nodeId = 1, .jobId = "812", .stepId = "0" };
    auto assembled = assembleCapture(request);
    ASSERT_TRUE(assembled.ok()) << assembled.error().message;
    auto reader = core::SessionReader::open(request.output);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    auto processes = reader.value().processes().value();
    ASSERT_EQ(processes.size(), 2u);
    for (const auto& p : processes)
        EXPECT_EQ(p.rank, 3) << p.pid;
    auto meta = reader.value().meta().value();
    EXPECT_EQ(meta["slurm.procid"], "3");
    EXPECT_EQ(meta["slurm.nodeid"], "1");
    EXPECT_EQ(meta["slurm.job_id"], "812");
    EXPECT_EQ(meta["slurm.step_id"], "0");
}

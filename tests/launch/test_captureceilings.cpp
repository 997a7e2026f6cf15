// SPDX-License-Identifier: MIT
// The ceilings an assembled capture carries: the datasheet figures of the GPU the driver reported
// (the importers' catalogue lookup), the counter ceilings of its first profiled launch, and the
// measured ones, each under its own source.
#include "ridgeline/collectors/ceilings/gpucatalogue.h"
#include "ridgeline/collectors/launch/captureassembly.h"
#include "ridgeline/core/model/metricnames.h"
#include "ridgeline/core/store/sessionreader.h"
#include "ridgeline/core/store/sessionwriter.h"
#include "tempdir.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <map>

using namespace ridgeline;
using namespace ridgeline::collectors;
namespace fs = std::filesystem;
namespace metric = core::metric;

namespace {

constexpr const char* kH100Uuid = "GPU-00112233-4455-6677-8899-aabbccddeeff";

// An H100 SXM5 as the injection library records it: the CUDA device name, CC 9.0, 132 SMs.
// FFMA peak: 132 SMs x 128 FP32 lanes = 16896 thread instructions per cycle at 1.755 GHz;
// DRAM: 5120-bit HBM3 at 1.593 GHz, double data rate = 5120 / 8 x 2 = 1280 bytes per cycle.
constexpr double kFfmaPerCycle = 16896, kSmClock = 1.755e9, kDramPerCycle = 1280, kDramClock = 1.593e9;
// L2: 5120 bytes per L2 cycle; L1: 132 SMs x 128 bytes per cycle; tensor: operations per SM cycle
// per source type (FP16 dense: 132 SMs x 4096; BF16 the same; FP8 and INT8 twice; TF32 half;
// FP64 132 x 256). The L2 and L1 clocks differ from the SM clock on purpose.
constexpr double kL2PerCycle = 5120, kL2Clock = 1.6e9, kL1PerCycle = 16896, kL1Clock = 1.7e9;
const std::map<std::string, std::pair<const char*, double>> kTensorPeaks {
    { "fp16", { "FP16_tensor", 540672 } },
    { "bf16_dst_fp32", { "BF16_tensor", 540672 } },
    { "tf32_dst_fp32", { "TF32_tensor", 270336 } },
    { "fp8", { "FP8_tensor", 1081344 } },
    { "int8", { "INT8_tensor", 1081344 } },
    { "fp64", { "FP64_tensor", 33792 } },
};

void writePart(const std::string& path, const std::string& deviceName)
{
    core::WriterOptions options;
    options.atomic = false;
    auto writer = core::SessionWriter::create(path, options);
    ASSERT_TRUE(writer.ok()) << writer.error().message;
    auto& w = writer.value();
    core::Device device;
    device.name = deviceName;
    device.uuid = kH100Uuid;
    device.ccMajor = 9;
    device.smCount = 132;
    auto deviceId = w.addDevice(device);
    ASSERT_TRUE(deviceId.ok());
    auto name = w.internKernelName("_Z4gemmv");
    ASSERT_TRUE(name.ok());
    ASSERT_TRUE(w.beginBatch().ok());
    std::vector<core::Kernel> kernels(2);
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        kernels[i].deviceId = deviceId.value();
        kernels[i].nameId = name.value();
        kernels[i].startNs = 1000 * static_cast<std::int64_t>(i);
        kernels[i].endNs = kernels[i].startNs + 500;
    }
    auto first = w.addKernels(kernels);
    ASSERT_TRUE(first.ok());
    // Only the second launch was profiled (a launch filter skipped the first).
    const std::int64_t profiled = first.value() + 1;
    std::vector<core::MetricValue> metrics {
        { profiled, std::string(metric::FfmaPeakPerCycle), kFfmaPerCycle, "" },
        { profiled, std::string(metric::SmClock), kSmClock, "Hz" },
        { profiled, std::string(metric::DramBytesPeakPerCycle), kDramPerCycle, "" },
        { profiled, std::string(metric::DramClock), kDramClock, "Hz" },
        { profiled, std::string(metric::Duration), 500, "ns" },
        // The roofline set's L2 and L1 peaks (GH100 names) and their clocks.
        { profiled, "lts__t_bytes.sum.peak_sustained", kL2PerCycle, "" },
        { profiled, std::string(metric::L2Clock), kL2Clock, "Hz" },
        { profiled, "l1tex__t_bytes.sum.peak_sustained", kL1PerCycle, "" },
        { profiled, std::string(metric::L1Clock), kL1Clock, "Hz" },
    };
    for (const auto& [type, peak] : kTensorPeaks)
        metrics.push_back(
            { profiled, std::string(metric::TensorOpsPrefix) + type + ".sum.peak_sustained", peak.second, "" });
    ASSERT_TRUE(w.addMetrics(metrics).ok());
    ASSERT_TRUE(w.commitBatch().ok());
    ASSERT_TRUE(w.finish(core::SessionStatus::Complete).ok());
}

struct Assembled {
    std::vector<core::Ceiling> ceilings;
    AssemblyResult result;
};

Assembled assemble(const std::string& deviceName, bool measured)
{
    ridgeline::testing::TempDir dir;
    const auto parts = dir.file("out.ridge.parts");
    fs::create_directory(parts);
    writePart(parts + "/h-1.part.ridge", deviceName);
    AssemblyRequest request;
    request.partDir = parts;
    request.output = dir.file("out.ridge");
    request.program.pid = 1;
    request.program.exitStatus = 0;
    if (measured) {
        request.measuredCeilings = [](const std::string& uuid) {
            std::vector<core::Ceiling> c;
            if (uuid == kH100Uuid)
                c.push_back({ 0, "DRAM", 2.9e12, "B/s", core::CeilingSource::Measured, "test" });
            return c;
        };
    }
    Assembled out;
    auto assembled = assembleCapture(request);
    EXPECT_TRUE(assembled.ok()) << assembled.error().message;
    if (!assembled.ok())
        return out;
    out.result = assembled.value();
    auto reader = core::SessionReader::open(request.output);
    EXPECT_TRUE(reader.ok());
    if (reader.ok())
        out.ceilings = reader.value().ceilings().value();
    return out;
}

const core::Ceiling* find(const std::vector<core::Ceiling>& all, const std::string& res, core::CeilingSource source)
{
    for (const auto& c : all) {
        if (c.resource == res && c.source == source)
            return &c;
    }
    return nullptr;
}

} // namespace

TEST(CaptureCeilings, DatasheetCountersAndMeasuredTogether)
{
    const auto a = assemble("NVIDIA H100 80GB HBM3", true);
    const GpuSpec* spec = findGpu("NVIDIA H100 80GB HBM3", 9, 0, 132);
    ASSERT_NE(spec, nullptr);
    // Every datasheet peak of the catalogue entry, none other.
    int datasheet = 0;
    for (const auto& c : a.ceilings) {
        if (c.source != core::CeilingSource::Datasheet)
            continue;
        ++datasheet;
        const auto resource = core::resourceFromString(c.resource);
        ASSERT_TRUE(resource && spec->peaks.contains(*resource)) << c.resource;
        EXPECT_DOUBLE_EQ(c.value, spec->peaks.at(*resource)) << c.resource;
    }
    EXPECT_EQ(datasheet, static_cast<int>(spec->peaks.size()));
    EXPECT_TRUE(spec->peaks.contains(core::Resource::FP16Tensor)); // so a captured tensor GEMM has a tensor roof

    const auto* fp32 = find(a.ceilings, "FP32", core::CeilingSource::Counters);
    ASSERT_NE(fp32, nullptr);
    EXPECT_DOUBLE_EQ(fp32->value, kFfmaPerCycle * 2 * kSmClock); // 59.3 TFLOP/s
    const auto* dram = find(a.ceilings, "DRAM", core::CeilingSource::Counters);
    ASSERT_NE(dram, nullptr);
    EXPECT_DOUBLE_EQ(dram->value, kDramPerCycle * kDramClock); // 2.04 TB/s

    const auto* l2 = find(a.ceilings, "L2", core::CeilingSource::Counters);
    ASSERT_NE(l2, nullptr);
    EXPECT_DOUBLE_EQ(l2->value, kL2PerCycle * kL2Clock); // at the L2's own clock
    const auto* l1 = find(a.ceilings, "L1", core::CeilingSource::Counters);
    ASSERT_NE(l1, nullptr);
    EXPECT_DOUBLE_EQ(l1->value, kL1PerCycle * kL1Clock);
    for (const auto& [type, peak] : kTensorPeaks) {
        const auto* tensor = find(a.ceilings, peak.first, core::CeilingSource::Counters);
        ASSERT_NE(tensor, nullptr) << type;
        EXPECT_DOUBLE_EQ(tensor->value, peak.second * kSmClock) << type; // operations per cycle x SM clock
    }
    // Every counter ceiling the peaks allow, and no other.
    int counters = 0;
    for (const auto& c : a.ceilings)
        counters += c.source == core::CeilingSource::Counters ? 1 : 0;
    EXPECT_EQ(counters, 4 + static_cast<int>(kTensorPeaks.size())); // FP32, DRAM, L2, L1, six tensor types

    const auto* measured = find(a.ceilings, "DRAM", core::CeilingSource::Measured);
    ASSERT_NE(measured, nullptr);
    EXPECT_DOUBLE_EQ(measured->value, 2.9e12);
    EXPECT_EQ(a.result.devicesWithMeasuredCeilings, 1);
    EXPECT_TRUE(a.result.warnings.empty());
}

TEST(CaptureCeilings, UnknownGpuGetsCounterCeilingsAndAWarning)
{
    const auto a = assemble("NVIDIA Prototype X", false);
    for (const auto& c : a.ceilings)
        EXPECT_NE(c.source, core::CeilingSource::Datasheet) << c.resource;
    EXPECT_NE(find(a.ceilings, "FP32", core::CeilingSource::Counters), nullptr);
    EXPECT_EQ(a.result.devicesWithMeasuredCeilings, 0);
    ASSERT_EQ(a.result.warnings.size(), 1u);
    EXPECT_EQ(
        a.result.warnings[0], "GPU \"NVIDIA Prototype X\" is not in Ridgeline's catalogue: no datasheet ceilings");
}

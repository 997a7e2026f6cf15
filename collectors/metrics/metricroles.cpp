// SPDX-License-Identifier: MIT
#include "ridgeline/collectors/metrics/metricroles.h"

#include "ridgeline/core/model/metricnames.h"

#include <algorithm>
#include <span>
#include <string>

namespace ridgeline::collectors {

namespace {

namespace metric = core::metric;
namespace resource = core::resource;

constexpr std::string_view PeakSuffix = ".peak_sustained";

std::string spaced(std::string_view resourceName)
{
    std::string out(resourceName);
    std::replace(out.begin(), out.end(), '_', ' ');
    return out;
}

// The tensor resource of a source type (metricnames.h TensorSrc*), or nullptr (INT4, FP4, ...).
const char* tensorResource(std::string_view source)
{
    const auto in = [source](std::span<const std::string_view> list) {
        return std::find(list.begin(), list.end(), source) != list.end();
    };
    if (in(metric::TensorSrcFp64))
        return resource::FP64Tensor;
    if (in(metric::TensorSrcTf32))
        return resource::TF32Tensor;
    if (in(metric::TensorSrcFp16))
        return resource::FP16Tensor;
    if (in(metric::TensorSrcBf16))
        return resource::BF16Tensor;
    if (in(metric::TensorSrcFp8))
        return resource::FP8Tensor;
    if (in(metric::TensorSrcInt8))
        return resource::INT8Tensor;
    return nullptr;
}

// "FP64 FLOPs (2 per DFMA)" for a SASS thread-instruction counter, or empty.
std::string sassFeeds(std::string_view name)
{
    for (const auto prefix : metric::SassPrefixes) {
        if (!name.starts_with(prefix) || !name.ends_with(metric::SassSuffix))
            continue;
        const auto op = name.substr(prefix.size(), name.size() - prefix.size() - metric::SassSuffix.size());
        const char* precision = op.starts_with('d') ? "FP64" : op.starts_with('f') ? "FP32" : "FP16";
        const bool half = op.starts_with('h');
        const bool fma = op.ends_with("fma");
        const int flops = (fma ? 2 : 1) * (half ? 2 : 1);
        std::string inst(op);
        std::transform(inst.begin(), inst.end(), inst.begin(), [](unsigned char c) { return std::toupper(c); });
        return std::string(precision) + " FLOPs (" + std::to_string(flops) + " per " + inst + (half ? "2" : "") + ")";
    }
    return {};
}

std::string ceilingOf(std::string_view base)
{
    if (auto sass = sassFeeds(base); !sass.empty())
        return sass.substr(0, sass.find(' ')) + " counter ceiling (instructions per cycle)";
    if (base.starts_with(metric::TensorOpsPrefix) && base.ends_with(metric::TensorOpsSuffix)) {
        const auto source = base.substr(metric::TensorOpsPrefix.size(),
            base.size() - metric::TensorOpsPrefix.size() - metric::TensorOpsSuffix.size());
        if (const char* res = tensorResource(source))
            return spaced(res) + " counter ceiling (operations per cycle)";
        return "detail only: a tensor peak the roofline has no resource for";
    }
    if (base == metric::DramBytes)
        return "DRAM counter ceiling (bytes per DRAM cycle)";
    if (base == metric::L2Bytes)
        return "L2 counter ceiling (bytes per L2 cycle)";
    if (base == metric::L1Bytes)
        return "L1 counter ceiling (bytes per L1 cycle)";
    if (base == metric::TensorPipeInst)
        return "detail only: tensor instructions per cycle";
    return "detail only (not read by the roofline)";
}

} // namespace

bool isPeakFigure(std::string_view name)
{
    return name.ends_with(PeakSuffix);
}

std::string metricFeeds(std::string_view name)
{
    if (isPeakFigure(name))
        return ceilingOf(name.substr(0, name.size() - PeakSuffix.size()));
    if (auto sass = sassFeeds(name); !sass.empty())
        return sass;
    if (name.starts_with(metric::TensorOpsPrefix) && name.ends_with(metric::TensorOpsSuffix)) {
        const auto source = name.substr(metric::TensorOpsPrefix.size(),
            name.size() - metric::TensorOpsPrefix.size() - metric::TensorOpsSuffix.size());
        if (const char* res = tensorResource(source))
            return spaced(res) + " operations (counted)";
        return "detail only: a tensor type the roofline has no resource for";
    }
    if (name == metric::TensorPipeInst)
        return "FP16 tensor FLOPs, estimated (512 per tensor instruction, every type booked as FP16)";
    if (name == metric::DramBytes)
        return "DRAM bytes";
    if (name == metric::DramBytesRead || name == metric::DramBytesWrite || name == metric::DramBytesOpRead
        || name == metric::DramBytesOpWrite)
        return "DRAM bytes (read or write part)";
    if (name == metric::L2Bytes)
        return "L2 bytes";
    if (name == metric::L1Bytes)
        return "L1 bytes";
    if (name == metric::NvlinkRxBytes || name == metric::NvlinkTxBytes)
        return "NVLink bytes (busier direction)";
    if (name == metric::PcieReadBytes || name == metric::PcieWriteBytes)
        return "PCIe bytes (busier direction)";
    if (name == metric::Duration)
        return "kernel time (FLOP/s and bytes/s)";
    if (name == metric::SmCyclesElapsed)
        return "SM cycles (counter ceilings)";
    if (name == metric::SmClock)
        return "SM clock (compute counter ceilings)";
    if (name == metric::DramClock)
        return "DRAM clock (DRAM counter ceiling)";
    if (name == "lts__cycles_elapsed.avg.per_second")
        return "L2 clock (L2 counter ceiling)";
    if (name == "l1tex__cycles_elapsed.avg.per_second")
        return "L1 clock (L1 counter ceiling)";
    return "detail only (not read by the roofline)";
}

} // namespace ridgeline::collectors

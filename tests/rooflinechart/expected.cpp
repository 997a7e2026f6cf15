// SPDX-License-Identifier: MIT
#include "expected.h"

#include "ridgeline/core/store/sessionreader.h"

#include <gtest/gtest.h>

namespace ridgeline::testing {

namespace {

using Metrics = std::map<std::string, double>;

double value(const Metrics& m, const std::string& name, bool& found)
{
    for (const char* prefix : { "smsp__sass_thread_inst_executed_op_", "sm__sass_thread_inst_executed_op_" }) {
        auto it = m.find(prefix + name + "_pred_on.sum");
        if (it != m.end()) {
            found = true;
            return it->second;
        }
    }
    return 0;
}

// add, mul, fma with their FLOPs per instruction; absent when none of the three was counted.
void cudaCore(const Metrics& m, Metrics& ops, const char* precision, const char* p, double addMul, double fma)
{
    bool found = false;
    const double flops = addMul * (value(m, std::string(p) + "add", found) + value(m, std::string(p) + "mul", found))
        + fma * value(m, std::string(p) + "fma", found);
    if (found)
        ops[precision] += flops;
}

struct Totals {
    Metrics ops; // precision -> FLOPs
    Metrics bytes; // level -> bytes
    double countedNs = 0;
    std::int64_t totalNs = 0;
    std::string name;
};

} // namespace

std::map<std::pair<std::int64_t, std::string>, core::Ceiling> expectedBestCeilings(
    const std::vector<core::Ceiling>& ceilings, const std::vector<std::int64_t>& devices)
{
    const auto rank = [](core::CeilingSource s) {
        return s == core::CeilingSource::Measured ? 0 : s == core::CeilingSource::Counters ? 1 : 2;
    };
    std::map<std::pair<std::int64_t, std::string>, core::Ceiling> best;
    for (const auto& c : ceilings) {
        if (!(c.value > 0)
            || (!devices.empty() && std::find(devices.begin(), devices.end(), c.deviceId) == devices.end()))
            continue;
        const std::pair key { c.deviceId, c.resource };
        auto it = best.find(key);
        if (it == best.end() || rank(c.source) < rank(it->second.source)
            || (rank(c.source) == rank(it->second.source) && c.value > it->second.value))
            best[key] = c;
    }
    return best;
}

std::vector<ExpectedPoint> expectedPoints(core::SessionReader& reader, const std::vector<core::KernelSummary>& rows,
    const std::vector<std::string>& levels, bool perPrecision)
{
    std::map<std::int64_t, std::string> names;
    auto kernelNames = reader.kernelNames();
    EXPECT_TRUE(kernelNames.ok());
    auto kernels = reader.kernels();
    EXPECT_TRUE(kernels.ok());
    if (!kernelNames.ok() || !kernels.ok())
        return {};
    for (const auto& n : kernelNames.value())
        names[n.id] = n.demangled.empty() ? n.raw : n.demangled;
    std::map<std::pair<std::int64_t, std::int64_t>, Totals> byKernel; // (name id, device) -> totals
    std::int64_t allNs = 0;
    for (const auto& k : kernels.value()) {
        auto& t = byKernel[{ k.nameId, k.deviceId }];
        t.name = names[k.nameId];
        t.totalNs += std::max<std::int64_t>(k.durationNs(), 0);
        allNs += std::max<std::int64_t>(k.durationNs(), 0);
        Metrics m;
        auto values = reader.metrics(k.id);
        EXPECT_TRUE(values.ok());
        if (values.ok()) {
            for (const auto& v : values.value())
                m[v.name] = v.value;
        }
        for (const auto& [name, v] : m)
            EXPECT_EQ(name.rfind("sm__ops_path_tensor_src_", 0), std::string::npos) << "not handled here: " << name;
        Metrics ops, bytes;
        cudaCore(m, ops, "FP64", "d", 1, 2);
        cudaCore(m, ops, "FP32", "f", 1, 2);
        cudaCore(m, ops, "FP16", "h", 2, 4);
        if (m.count("sm__inst_executed_pipe_tensor.sum"))
            ops["FP16_tensor"] += 512.0 * m["sm__inst_executed_pipe_tensor.sum"];
        if (m.count("dram__bytes.sum"))
            bytes["DRAM"] = m["dram__bytes.sum"];
        else if (m.count("dram__bytes_read.sum") || m.count("dram__bytes_write.sum"))
            bytes["DRAM"] = m["dram__bytes_read.sum"] + m["dram__bytes_write.sum"];
        if (m.count("lts__t_bytes.sum"))
            bytes["L2"] = m["lts__t_bytes.sum"];
        if (m.count("l1tex__t_bytes.sum"))
            bytes["L1"] = m["l1tex__t_bytes.sum"];
        if (ops.empty() && bytes.empty())
            continue; // no counters
        for (const auto& [p, v] : ops)
            t.ops[p] += v;
        for (const auto& [l, v] : bytes)
            t.bytes[l] += v;
        const double measured = m.count("gpu__time_duration.sum") ? m["gpu__time_duration.sum"] : 0;
        t.countedNs += measured > 0 ? measured : static_cast<double>(k.durationNs());
    }
    EXPECT_EQ(byKernel.size(), rows.size());

    std::vector<ExpectedPoint> points;
    for (const auto& [key, t] : byKernel) {
        double flops = 0;
        for (const auto& [p, v] : t.ops)
            flops += v;
        if (!(flops > 0) || !(t.countedNs > 0))
            continue;
        const double seconds = t.countedNs / 1e9;
        const double share = static_cast<double>(t.totalNs) / static_cast<double>(allNs);
        for (const auto& level : levels) {
            auto bytes = t.bytes.find(level);
            if (bytes == t.bytes.end() || !(bytes->second > 0))
                continue;
            if (!perPrecision) {
                points.push_back({ t.name, key.second, level, "", flops / bytes->second, flops / seconds, share });
                continue;
            }
            for (const auto& [p, v] : t.ops) {
                if (v > 0)
                    points.push_back({ t.name, key.second, level, p, v / bytes->second, v / seconds, share });
            }
        }
    }
    return points;
}

} // namespace ridgeline::testing

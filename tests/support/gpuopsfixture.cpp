// SPDX-License-Identifier: MIT
#include "gpuopsfixture.h"

#include "ridgeline/core/store/sessionformat.h"
#include "ridgeline/core/store/sessionwriter.h"

#include <algorithm>
#include <fmt/format.h>
#include <vector>

namespace ridgeline::testing {

using namespace ridgeline::core;

namespace {

enum class OpType { Kernel, Copy, Memset };

OpType typeOf(const GpuOpsSpec& spec, std::int64_t i)
{
    if (spec.copyEvery > 0 && i % spec.copyEvery == spec.copyEvery - 1)
        return OpType::Copy;
    if (spec.memsetEvery > 0 && i % spec.memsetEvery == spec.memsetEvery - 2)
        return OpType::Memset;
    return OpType::Kernel;
}

class OpBatches {
public:
    OpBatches(SessionWriter& writer, std::int64_t batchSize)
        : m_writer(writer)
        , m_batchSize(static_cast<std::size_t>(batchSize))
    {
        m_kernels.reserve(m_batchSize);
    }
    Status add(const Kernel& k)
    {
        m_kernels.push_back(k);
        return m_kernels.size() + m_memOps.size() >= m_batchSize ? flush() : Status {};
    }
    Status add(const MemOp& m)
    {
        m_memOps.push_back(m);
        return m_kernels.size() + m_memOps.size() >= m_batchSize ? flush() : Status {};
    }
    Status flush()
    {
        if (!m_kernels.empty()) {
            auto added = m_writer.addKernels(m_kernels);
            if (added.hasError())
                return added.error();
            m_kernels.clear();
        }
        if (!m_memOps.empty()) {
            auto added = m_writer.addMemOps(m_memOps);
            if (added.hasError())
                return added.error();
            m_memOps.clear();
        }
        return {};
    }

private:
    SessionWriter& m_writer;
    std::size_t m_batchSize;
    std::vector<Kernel> m_kernels;
    std::vector<MemOp> m_memOps;
};

} // namespace

GpuOpsCounts gpuOpsCounts(const GpuOpsSpec& spec)
{
    GpuOpsCounts counts;
    // typeOf repeats every copyEvery * memsetEvery ops; count one period, then the remainder.
    const std::int64_t period = std::max(1, spec.copyEvery) * std::max(1, spec.memsetEvery);
    auto countUpTo = [&](std::int64_t n, GpuOpsCounts& c) {
        for (std::int64_t i = 0; i < n; ++i) {
            switch (typeOf(spec, i)) {
            case OpType::Kernel:
                ++c.kernels;
                break;
            case OpType::Copy:
                ++c.copies;
                break;
            case OpType::Memset:
                ++c.memsets;
                break;
            }
        }
    };
    GpuOpsCounts perPeriod;
    countUpTo(period, perPeriod);
    const std::int64_t periods = spec.ops / period;
    counts.kernels = perPeriod.kernels * periods;
    counts.copies = perPeriod.copies * periods;
    counts.memsets = perPeriod.memsets * periods;
    GpuOpsCounts rest;
    countUpTo(spec.ops % period, rest);
    counts.kernels += rest.kernels;
    counts.copies += rest.copies;
    counts.memsets += rest.memsets;
    return counts;
}

Status writeSyntheticGpuOps(const std::string& path, const GpuOpsSpec& spec)
{
    WriterOptions options;
    options.replaceExisting = true;
    auto created = SessionWriter::create(path, options);
    if (created.hasError())
        return created.error();
    SessionWriter& w = created.value();
    RIDGELINE_TRY(w.setMeta(metakey::Source, "fixture"));
    RIDGELINE_TRY(
        w.setMeta(metakey::Origin, "synthetic GPU ops written by tests/support/gpuopsfixture.cpp; not measured"));
    const int devices = spec.ranks * spec.devicesPerRank;
    for (int d = 0; d < devices; ++d) {
        Device dev;
        dev.id = d;
        dev.host = fmt::format("fixture-host-{}", d / spec.devicesPerRank);
        dev.ordinal = d % spec.devicesPerRank;
        dev.name = "NVIDIA H100 80GB HBM3";
        dev.ccMajor = 9;
        dev.smCount = 132;
        RIDGELINE_TRY(w.addDevice(dev));
    }
    for (int r = 0; r < spec.ranks; ++r) {
        Process p;
        p.id = r + 1;
        p.pid = 1000 + r;
        p.host = fmt::format("fixture-host-{}", r);
        p.rank = r;
        p.worldSize = spec.ranks;
        RIDGELINE_TRY(w.addProcess(p));
    }
    std::vector<std::int64_t> names;
    for (int i = 0; i < spec.kernelNames; ++i) {
        auto id = w.internKernelName(fmt::format("_Z15syntheticGpuOpILi{}EEvPfS0_i", i));
        if (id.hasError())
            return id.error();
        names.push_back(id.value());
    }
    const std::int64_t lanes = static_cast<std::int64_t>(devices) * spec.streamsPerDevice;
    std::vector<std::int64_t> clock(static_cast<std::size_t>(lanes), 1'000'000);
    OpBatches batches(w, spec.batchSize);
    constexpr MemOpKind kCopyKinds[] = { MemOpKind::MemcpyHtoD, MemOpKind::MemcpyDtoH, MemOpKind::MemcpyDtoD };
    for (std::int64_t i = 0; i < spec.ops; ++i) {
        const std::int64_t lane = i % lanes;
        const std::int64_t device = lane / spec.streamsPerDevice;
        const std::int64_t process = device / spec.devicesPerRank + 1;
        const std::int64_t stream = 7 + lane % spec.streamsPerDevice;
        auto& now = clock[static_cast<std::size_t>(lane)];
        const std::int64_t start = now;
        const std::int64_t correlation = i / lanes + 1;
        switch (typeOf(spec, i)) {
        case OpType::Kernel: {
            const std::int64_t duration = 2'000 + (i * 7919) % 40'000;
            Kernel k;
            k.processId = process;
            k.deviceId = device;
            k.contextId = 1;
            k.streamId = stream;
            k.correlationId = correlation;
            k.nameId = names[static_cast<std::size_t>((i / lanes) % spec.kernelNames)];
            k.startNs = start;
            k.endNs = start + duration;
            k.grid = { static_cast<std::uint32_t>(128 + i % 4096), 1, 1 };
            k.block = { 256, 1, 1 };
            k.registersPerThread = 32;
            k.dynamicSharedBytes = 4096;
            now = k.endNs;
            RIDGELINE_TRY(batches.add(k));
            break;
        }
        case OpType::Copy:
        case OpType::Memset: {
            const bool memset = typeOf(spec, i) == OpType::Memset;
            MemOp m;
            m.processId = process;
            m.deviceId = device;
            m.streamId = stream;
            m.correlationId = correlation;
            m.kind = memset ? MemOpKind::Memset : kCopyKinds[(i / spec.copyEvery) % 3];
            m.bytes = 65'536 << (i % 8);
            m.startNs = start;
            m.endNs = start + (memset ? 1'000 : 3'000 + (i * 131) % 20'000);
            m.dstMemory = "device";
            if (!memset)
                m.srcMemory = m.kind == MemOpKind::MemcpyHtoD ? "pinned" : "device";
            if (m.kind == MemOpKind::MemcpyDtoH)
                m.dstMemory = "pinned";
            now = m.endNs;
            RIDGELINE_TRY(batches.add(m));
            break;
        }
        }
        now += 500 + (i * 104'729) % 2'000;
    }
    RIDGELINE_TRY(batches.flush());
    return w.finish(SessionStatus::Complete);
}

} // namespace ridgeline::testing

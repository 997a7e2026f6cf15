// SPDX-License-Identifier: MIT
// GPUs of an Nsight Systems export: TARGET_INFO_GPU (`id` in 2022.1 exports, `deviceId` in older
// ones, which keep the CUDA properties in TARGET_INFO_CUDA_GPU), and TARGET_INFO_CUDA_DEVICE (3.17+).
#include "common/importsession.h"
#include "nsysinternal.h"

#include <fmt/format.h>

namespace ridgeline::collectors::nsys {

namespace {

int toInt(std::int64_t value)
{
    return value < 0 || value > 1'000'000'000 ? 0 : static_cast<int>(value);
}

std::int64_t nonNegative(std::int64_t value)
{
    return value < 0 ? 0 : value;
}

// Warps per SM x threads per warp, without overflow on nonsense values.
int threadsPerSm(std::int64_t warps, std::int64_t threadsPerWarp)
{
    if (warps <= 0 || threadsPerWarp <= 0 || warps > 1'000'000 || threadsPerWarp > 1'000'000)
        return 0;
    return toInt(warps * threadsPerWarp);
}

} // namespace

core::Status readDevices(core::sqlite::Database& db, const Schema& schema, Activity& activity)
{
    // Devices the export lists without CUDA properties (an integrated GPU, a display adapter)
    // are kept only when activity refers to them (see the importer).
    constexpr const char* kGpu = "TARGET_INFO_GPU";
    const auto gpuId = schema.firstColumn(kGpu, { "id", "deviceId" }, "");
    if (schema.has(kGpu) && !gpuId.empty()) {
        const auto sql = fmt::format("SELECT {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM {}", gpuId,
            schema.column(kGpu, "name", "NULL"), schema.column(kGpu, "uuid", "NULL"),
            schema.column(kGpu, "computeMajor", "NULL"), schema.column(kGpu, "computeMinor", "0"),
            schema.column(kGpu, "smCount", "0"), schema.column(kGpu, "clockRate", "0"),
            schema.column(kGpu, "totalMemory", "0"), schema.column(kGpu, "l2CacheSize", "0"),
            schema.column(kGpu, "maxShmemPerSm", "0"), schema.column(kGpu, "maxWarpsPerSm", "0"),
            schema.column(kGpu, "threadsPerWarp", "0"), kGpu);
        RIDGELINE_TRY(forEachRow(db, sql, kGpu, [&](const core::sqlite::Statement& row) {
            const std::int64_t id = row.columnInt(0);
            if (id < 0 || activity.devices.count(id))
                return;
            core::Device d;
            d.id = id;
            d.ordinal = toInt(id);
            d.name = row.columnText(1);
            d.uuid = row.columnText(2);
            // No compute capability column (older exports): the CUDA table below fills it in.
            d.ccMajor = row.columnIsNull(3) ? -1 : toInt(row.columnInt(3));
            d.ccMinor = toInt(row.columnInt(4));
            d.smCount = toInt(row.columnInt(5));
            d.coreClockKhz = importing::kilohertz(static_cast<double>(nonNegative(row.columnInt(6)))); // Hz
            d.memoryBytes = nonNegative(row.columnInt(7));
            d.l2CacheBytes = nonNegative(row.columnInt(8));
            d.sharedMemoryPerSmBytes = nonNegative(row.columnInt(9));
            d.maxThreadsPerSm = threadsPerSm(row.columnInt(10), row.columnInt(11));
            activity.devices.emplace(id, d);
        }));
    }
    constexpr const char* kCuda = "TARGET_INFO_CUDA_GPU";
    if (schema.has(kCuda, "deviceId")) {
        const auto sql = fmt::format("SELECT deviceId, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} FROM {}",
            schema.column(kCuda, "name", "NULL"), schema.column(kCuda, "computeCapabilityMajor", "0"),
            schema.column(kCuda, "computeCapabilityMinor", "0"), schema.column(kCuda, "numMultiprocessors", "0"),
            schema.column(kCuda, "coreClockRate", "0"), schema.column(kCuda, "globalMemorySize", "0"),
            schema.column(kCuda, "l2CacheSize", "0"), schema.column(kCuda, "maxSharedMemoryPerMultiprocessor", "0"),
            schema.column(kCuda, "maxWarpsPerMultiprocessor", "0"), schema.column(kCuda, "numThreadsPerWarp", "0"),
            kCuda);
        RIDGELINE_TRY(forEachRow(db, sql, kCuda, [&](const core::sqlite::Statement& row) {
            const std::int64_t id = row.columnInt(0);
            if (id < 0)
                return;
            auto [it, added] = activity.devices.try_emplace(id);
            core::Device& d = it->second;
            if (added) {
                d.id = id;
                d.ordinal = toInt(id);
            }
            if (d.name.empty())
                d.name = row.columnText(1);
            if (d.ccMajor <= 0) {
                d.ccMajor = toInt(row.columnInt(2));
                d.ccMinor = toInt(row.columnInt(3));
            }
            d.smCount = d.smCount ? d.smCount : toInt(row.columnInt(4));
            d.coreClockKhz = d.coreClockKhz ? d.coreClockKhz : nonNegative(row.columnInt(5)); // kHz
            d.memoryBytes = d.memoryBytes ? d.memoryBytes : nonNegative(row.columnInt(6));
            d.l2CacheBytes = d.l2CacheBytes ? d.l2CacheBytes : nonNegative(row.columnInt(7));
            d.sharedMemoryPerSmBytes
                = d.sharedMemoryPerSmBytes ? d.sharedMemoryPerSmBytes : nonNegative(row.columnInt(8));
            d.maxThreadsPerSm
                = d.maxThreadsPerSm ? d.maxThreadsPerSm : threadsPerSm(row.columnInt(9), row.columnInt(10));
        }));
    }
    // Schema 3.17+: TARGET_INFO_CUDA_DEVICE (gpuId, cudaId, pid), from 3.24 with the SM count and
    // UUID as CUDA reports them: they fill what TARGET_INFO_GPU left out.
    constexpr const char* kCudaDevice = "TARGET_INFO_CUDA_DEVICE";
    if (schema.has(kCudaDevice, "cudaId")
        && (schema.has(kCudaDevice, "numMultiprocessors") || schema.has(kCudaDevice, "uuid"))) {
        const auto sql
            = fmt::format("SELECT cudaId, {}, {} FROM {}", schema.column(kCudaDevice, "numMultiprocessors", "0"),
                schema.column(kCudaDevice, "uuid", "NULL"), kCudaDevice);
        RIDGELINE_TRY(forEachRow(db, sql, kCudaDevice, [&](const core::sqlite::Statement& row) {
            auto it = activity.devices.find(row.columnInt(0));
            if (it == activity.devices.end())
                return; // a device TARGET_INFO_GPU does not describe stays unnamed
            core::Device& d = it->second;
            d.smCount = d.smCount ? d.smCount : toInt(row.columnInt(1));
            if (d.uuid.empty() && !row.columnIsNull(2))
                d.uuid = row.columnText(2);
        }));
    }
    return {};
}

} // namespace ridgeline::collectors::nsys

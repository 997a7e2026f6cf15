// SPDX-License-Identifier: MIT
// ridgeline-microbench [--device N]: measures GPU N and prints one JSON document on stdout:
// {"tool", "version", "measured_at", "device": {...}, "ceilings": [...], "measurements": [...]}.
// Exit status 0, 1 when a CUDA call failed, 2 for bad arguments or no GPU.
#include "microbench.h"

#include <cstring>
#include <ctime>
#include <map>
#include <string>

namespace {

std::string escaped(const std::string& text)
{
    std::string out;
    for (char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (static_cast<unsigned char>(c) >= 0x20)
            out += c;
    }
    return out;
}

std::string uuidOf(const cudaDeviceProp& prop)
{
    std::string s = "GPU-";
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            s += '-';
        char hex[3];
        std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(prop.uuid.bytes[i]));
        s += hex;
    }
    return s;
}

void printJson(const microbench::DeviceFacts& d, const std::vector<microbench::Measurement>& all)
{
    char when[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    std::printf("{\n  \"tool\": \"ridgeline-microbench\",\n  \"version\": 1,\n  \"measured_at\": \"%s\",\n", when);
    std::printf("  \"device\": {\"ordinal\": %d, \"name\": \"%s\", \"uuid\": \"%s\", \"compute_capability\": "
                "\"%d.%d\", \"sm_count\": %d, \"sm_clock_khz\": %d, \"memory_clock_khz\": %d, \"l2_cache_bytes\": "
                "%d},\n",
        d.ordinal, escaped(d.prop.name).c_str(), uuidOf(d.prop).c_str(), d.prop.major, d.prop.minor,
        d.prop.multiProcessorCount, d.smClockKhz, d.memoryClockKhz, d.prop.l2CacheSize);
    // One ceiling per resource: the best measurement of it.
    std::map<std::string, const microbench::Measurement*> best;
    for (const auto& m : all) {
        if (!m.resource.empty() && (best.count(m.resource) == 0 || best[m.resource]->value < m.value))
            best[m.resource] = &m;
    }
    std::printf("  \"ceilings\": [");
    const char* sep = "\n";
    for (const auto& [resource, m] : best) {
        std::printf("%s    {\"resource\": \"%s\", \"value\": %.6g, \"unit\": \"%s\", \"note\": \"%s\"}", sep,
            resource.c_str(), m->value, m->unit.c_str(), escaped(m->note).c_str());
        sep = ",\n";
    }
    std::printf("\n  ],\n  \"measurements\": [");
    sep = "\n";
    for (const auto& m : all) {
        std::printf("%s    {\"name\": \"%s\", \"value\": %.6g, \"unit\": \"%s\", \"note\": \"%s\"}", sep,
            m.name.c_str(), m.value, m.unit.c_str(), escaped(m.note).c_str());
        sep = ",\n";
    }
    std::printf("\n  ]\n}\n");
}

} // namespace

int main(int argc, char** argv)
{
    int ordinal = 0;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
            char* end = nullptr;
            ordinal = static_cast<int>(std::strtol(argv[++i], &end, 10));
            if (*end != '\0' || ordinal < 0) {
                std::fprintf(stderr, "ridgeline-microbench: --device needs a device number\n");
                return 2;
            }
        } else {
            std::fprintf(stderr, "usage: ridgeline-microbench [--device N]\n");
            return 2;
        }
    }
    microbench::DeviceFacts d;
    d.ordinal = ordinal;
    const cudaError_t counted = cudaGetDeviceCount(&d.deviceCount);
    if (counted != cudaSuccess || d.deviceCount == 0) {
        std::fprintf(stderr, "ridgeline-microbench: no CUDA device (%s)\n",
            counted != cudaSuccess ? cudaGetErrorString(counted) : "0 devices");
        return 2;
    }
    if (ordinal >= d.deviceCount) {
        std::fprintf(stderr, "ridgeline-microbench: device %d does not exist (%d devices)\n", ordinal, d.deviceCount);
        return 2;
    }
    MB_CHECK(cudaSetDevice(ordinal));
    MB_CHECK(cudaGetDeviceProperties(&d.prop, ordinal));
    MB_CHECK(cudaDeviceGetAttribute(&d.smClockKhz, cudaDevAttrClockRate, ordinal));
    MB_CHECK(cudaDeviceGetAttribute(&d.memoryClockKhz, cudaDevAttrMemoryClockRate, ordinal));
    std::vector<microbench::Measurement> all;
    for (auto* measure : { &microbench::measureMemory, &microbench::measureCompute, &microbench::measureTensor,
             &microbench::measureTransfers }) {
        auto part = measure(d);
        all.insert(all.end(), part.begin(), part.end());
    }
    printJson(d, all);
    return 0;
}

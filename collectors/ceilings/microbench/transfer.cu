// SPDX-License-Identifier: MIT
// Host<->device copies from and to pinned memory, and device-to-device copies between peers.
#include "microbench.h"

namespace microbench {

namespace {

constexpr size_t kBytes = size_t { 256 } << 20;

double copySeconds(void* dst, const void* src, cudaMemcpyKind kind)
{
    return bestSeconds(10, [&] { MB_CHECK(cudaMemcpyAsync(dst, src, kBytes, kind)); });
}

} // namespace

std::vector<Measurement> measureTransfers(const DeviceFacts& device)
{
    std::vector<Measurement> out;
    void* host = nullptr;
    void* dev = nullptr;
    MB_CHECK(cudaMallocHost(&host, kBytes));
    MB_CHECK(cudaMalloc(&dev, kBytes));
    const double h2d = static_cast<double>(kBytes) / copySeconds(dev, host, cudaMemcpyHostToDevice);
    const double d2h = static_cast<double>(kBytes) / copySeconds(host, dev, cudaMemcpyDeviceToHost);
    MB_CHECK(cudaFreeHost(host));
    out.push_back({ "h2d_pinned", "", h2d, "B/s", "cudaMemcpyAsync of 256 MiB from pinned host memory, best of 10" });
    out.push_back({ "d2h_pinned", "", d2h, "B/s", "cudaMemcpyAsync of 256 MiB to pinned host memory, best of 10" });
    char note[200];
    std::snprintf(note, sizeof note,
        "host link, pinned copies: host->device %.1f GB/s, device->host %.1f GB/s (the "
        "higher is the ceiling)",
        h2d / 1e9, d2h / 1e9);
    out.push_back({ "host_link", "PCIe", h2d > d2h ? h2d : d2h, "B/s", note });

    for (int peer = 0; peer < device.deviceCount; ++peer) {
        int canAccess = 0;
        if (peer == device.ordinal || cudaDeviceCanAccessPeer(&canAccess, device.ordinal, peer) != cudaSuccess
            || !canAccess)
            continue;
        const cudaError_t enabled = cudaDeviceEnablePeerAccess(peer, 0);
        if (enabled != cudaSuccess && enabled != cudaErrorPeerAccessAlreadyEnabled)
            continue;
        (void)cudaGetLastError();
        void* remote = nullptr;
        MB_CHECK(cudaSetDevice(peer));
        MB_CHECK(cudaMalloc(&remote, kBytes));
        MB_CHECK(cudaSetDevice(device.ordinal));
        const double seconds
            = bestSeconds(10, [&] { MB_CHECK(cudaMemcpyPeerAsync(remote, peer, dev, device.ordinal, kBytes)); });
        MB_CHECK(cudaFree(remote));
        int atomics = 0;
        (void)cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, device.ordinal, peer);
        std::snprintf(note, sizeof note, "cudaMemcpyPeerAsync of 256 MiB from GPU %d to GPU %d, best of 10%s",
            device.ordinal, peer, atomics ? " (native peer atomics: NVLink)" : "");
        // Native peer atomics mean an NVLink path; over PCIe the figure is no NVLink ceiling.
        out.push_back({ "peer_to_" + std::to_string(peer), atomics ? "NVLink" : "",
            static_cast<double>(kBytes) / seconds, "B/s", note });
    }
    MB_CHECK(cudaFree(dev));
    return out;
}

} // namespace microbench

// SPDX-License-Identifier: MIT
// Host<->device copies of 256 MiB, pinned and pageable, both ways, 4 of each: the session must
// hold each with its kind, memory type and bytes.
#include "kit.h"

#include <vector>

int main()
{
    const size_t bytes = size_t { 256 } << 20;
    const int copies = 4;
    void* device = nullptr;
    void* pinned = nullptr;
    std::vector<char> pageable(bytes, 1);
    KIT_CHECK(cudaMalloc(&device, bytes));
    KIT_CHECK(cudaMallocHost(&pinned, bytes));
    for (int i = 0; i < copies; ++i) {
        KIT_CHECK(cudaMemcpy(device, pinned, bytes, cudaMemcpyHostToDevice));
        KIT_CHECK(cudaMemcpy(pinned, device, bytes, cudaMemcpyDeviceToHost));
        KIT_CHECK(cudaMemcpy(device, pageable.data(), bytes, cudaMemcpyHostToDevice));
        KIT_CHECK(cudaMemcpy(pageable.data(), device, bytes, cudaMemcpyDeviceToHost));
    }
    KIT_CHECK(cudaDeviceSynchronize());
    kitExpectCopy("memcpy_htod", "pinned", copies, double(bytes) * copies);
    kitExpectCopy("memcpy_dtoh", "pinned", copies, double(bytes) * copies);
    kitExpectCopy("memcpy_htod", "pageable", copies, double(bytes) * copies);
    kitExpectCopy("memcpy_dtoh", "pageable", copies, double(bytes) * copies);
    KIT_CHECK(cudaFreeHost(pinned));
    KIT_CHECK(cudaFree(device));
    return 0;
}

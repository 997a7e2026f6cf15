// SPDX-License-Identifier: MIT
// A stand-in for libcuda.so.1, loaded by the launcher's probe through $RIDGELINE_LIBCUDA in tests
// only: one GPU, and the CUDA version the driver claims taken from $RIDGELINE_FAKE_CUDA_VERSION
// (cuDriverGetVersion's encoding, 1000 * major + 10 * minor). It lets the driver check run with
// fake version numbers on a machine without a GPU; no program ever runs CUDA work on it.
#include <cstdlib>
#include <cstring>

namespace {
constexpr int kSuccess = 0;
constexpr int kInvalidValue = 1;
} // namespace

extern "C" {

int cuInit(unsigned)
{
    return kSuccess;
}

int cuDriverGetVersion(int* version)
{
    const char* v = std::getenv("RIDGELINE_FAKE_CUDA_VERSION");
    *version = v != nullptr ? std::atoi(v) : 13000;
    return kSuccess;
}

int cuDeviceGetCount(int* count)
{
    *count = 1;
    return kSuccess;
}

int cuDeviceGet(int* device, int ordinal)
{
    if (ordinal != 0)
        return kInvalidValue;
    *device = 0;
    return kSuccess;
}

int cuDeviceGetName(char* name, int length, int)
{
    std::strncpy(name, "NVIDIA H100 80GB HBM3", static_cast<std::size_t>(length));
    return kSuccess;
}

int cuDeviceGetAttribute(int* value, int attribute, int)
{
    switch (attribute) {
    case 75: // compute capability major
        *value = 9;
        break;
    case 16: // SMs
        *value = 132;
        break;
    default:
        *value = 0;
    }
    return kSuccess;
}

int cuDeviceTotalMem_v2(std::size_t* bytes, int)
{
    *bytes = std::size_t { 80 } << 30;
    return kSuccess;
}
}

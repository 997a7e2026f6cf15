// SPDX-License-Identifier: MIT
// ridgeline-cupti-host: the CUPTI calls `ridgeline metrics` needs, in a program of their own so
// that the `ridgeline` binary never links CUPTI (it runs on machines without the CUDA Toolkit).
//   ridgeline-cupti-host passes CHIP METRIC...   replay passes of one config image (host API only,
//                                                no GPU needed); prints the number
//   ridgeline-cupti-host chip ORDINAL            the CUPTI chip name of a local GPU (needs the GPU)
// Errors: one sentence on stderr, exit 2 for a rejected chip or metric list, 5 for no GPU.
#include "counterconfig.h"
#include "cuptierrors.h"

#include <cstdio>
#include <cstdlib>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <string>
#include <vector>

namespace {

using namespace ridgeline;

int passes(const std::string& chip, const std::vector<std::string>& metrics)
{
    auto config = inject::CounterConfig::create(chip, metrics, {});
    if (config.hasError() && config.error().code == core::ErrorCode::InvalidArgument) {
        // Name the first metric the chip rejects on its own.
        for (const auto& metric : metrics) {
            if (inject::CounterConfig::create(chip, { metric }, {}).hasError()) {
                std::fprintf(stderr, "ridgeline: the %s chip has no metric %s (CUPTI's host API rejects it)\n",
                    chip.c_str(), metric.c_str());
                return 2;
            }
        }
        std::fprintf(
            stderr, "ridgeline: CUPTI's host API rejects these metrics together on the %s chip\n", chip.c_str());
        return 2;
    }
    if (config.hasError()) {
        std::fprintf(stderr, "ridgeline: %s\n", config.error().message.c_str());
        return 2;
    }
    std::printf("%zu\n", config.value().passes());
    return 0;
}

// cuptiDeviceGetChipName needs an initialised driver; without a GPU it must never be called.
int chip(const std::string& ordinal)
{
    void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    using Init = int (*)(unsigned);
    auto init = cuda != nullptr ? reinterpret_cast<Init>(dlsym(cuda, "cuInit")) : nullptr;
    if (init == nullptr || init(0) != 0) {
        std::fprintf(stderr, "ridgeline: no GPU: the CUDA driver could not be initialised\n");
        return 5;
    }
    CUpti_Profiler_Initialize_Params profiler {};
    profiler.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
    if (const CUptiResult r = cuptiProfilerInitialize(&profiler); r != CUPTI_SUCCESS) {
        std::fprintf(stderr, "ridgeline: %s\n",
            inject::cuptiErrorSentence(r, inject::CuptiStage::Counters, "cuptiProfilerInitialize").c_str());
        return 2;
    }
    CUpti_Device_GetChipName_Params name {};
    name.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
    name.deviceIndex = std::strtoul(ordinal.c_str(), nullptr, 10);
    if (const CUptiResult r = cuptiDeviceGetChipName(&name); r != CUPTI_SUCCESS || name.pChipName == nullptr) {
        std::fprintf(stderr, "ridgeline: %s\n",
            inject::cuptiErrorSentence(r, inject::CuptiStage::Counters, "cuptiDeviceGetChipName").c_str());
        return 2;
    }
    std::printf("%s\n", name.pChipName);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() >= 3 && args[0] == "passes")
        return passes(args[1], std::vector<std::string>(args.begin() + 2, args.end()));
    if (args.size() == 2 && args[0] == "chip")
        return chip(args[1]);
    std::fprintf(stderr, "usage: ridgeline-cupti-host passes CHIP METRIC... | chip ORDINAL\n");
    return 1;
}

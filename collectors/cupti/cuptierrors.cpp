// SPDX-License-Identifier: MIT
#include "cuptierrors.h"

#include <cupti_version.h>

namespace ridgeline::inject {

namespace {

const char* lost(CuptiStage stage)
{
    return stage == CuptiStage::Counters ? "no hardware counters were recorded (the trace is kept)"
                                         : "no GPU activity was recorded";
}

constexpr const char* kAdminAdvice
    = "GPU performance counters are restricted to administrators on this machine (RmProfilingAdminOnly=1 in "
      "/proc/driver/nvidia/params): run as root, or set `options nvidia NVreg_RestrictProfilingToAdminUsers=0` in a "
      "file under /etc/modprobe.d and reboot (in a container, also add --cap-add SYS_ADMIN)";

} // namespace

std::string cuptiErrorSentence(CUptiResult result, CuptiStage stage, const std::string& call)
{
    const std::string what = lost(stage);
    switch (result) {
    case CUPTI_SUCCESS:
        return {};
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        return std::string(kAdminAdvice) + "; " + what + ".";
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        return "this virtual GPU (vGPU) does not allow profiling: the host's administrator must enable profiling for "
               "the vGPU (NVIDIA vGPU documentation, \"enable_profiling\"); "
            + what + ".";
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
    case CUPTI_ERROR_HARDWARE_BUSY:
        return "another profiler is already attached to this program (Nsight Systems, Nsight Compute, the PyTorch "
               "profiler or DCGM profiling): run without it, or stop it first; "
            + what + ".";
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
        return "this GPU is a MIG instance, and CUPTI cannot profile MIG instances: run on a GPU with MIG disabled "
               "(nvidia-smi -mig 0, as administrator); "
            + what + ".";
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
        return "this GPU is virtualised (vGPU or a passthrough without profiling support): run on a bare-metal GPU or "
               "a vGPU with profiling enabled; "
            + what + ".";
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
        return "CUPTI cannot profile this GPU under WSL: run on native Linux; " + what + ".";
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
        return "this GPU runs in confidential-computing mode, which forbids profiling: turn it off to profile; " + what
            + ".";
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
        return "this is a CMP (crypto-mining) GPU, which CUPTI cannot profile; " + what + ".";
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
        return "CUPTI cannot profile GPUs in SLI mode: disable SLI to profile; " + what + ".";
    case CUPTI_ERROR_INVALID_CHIP_NAME:
        return "this CUPTI (API version " + std::to_string(CUPTI_API_VERSION)
            + ") does not know the GPU's chip, which is newer than it: install a newer CUDA toolkit; " + what + ".";
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
        return "CUPTI does not support " + std::string(stage == CuptiStage::Counters ? "counters" : "tracing")
            + " on this GPU or system (older than Turing for counters, MIG, vGPU or WSL); " + what + ".";
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_CUDA_COMPILER_NOT_COMPATIBLE:
        return "the NVIDIA driver is older than this CUPTI (API version " + std::to_string(CUPTI_API_VERSION)
            + "): update the driver or capture with a CUPTI that matches it; " + what + ".";
    case CUPTI_ERROR_NOT_INITIALIZED:
        return "the CUDA driver could not be initialised (no NVIDIA GPU, or the driver is not loaded); " + what + ".";
    case CUPTI_ERROR_OUT_OF_MEMORY:
        return "CUPTI ran out of memory in " + call + "; " + what + ".";
    default:
        return call + " failed with CUPTI error " + std::to_string(static_cast<int>(result)) + "; " + what + ".";
    }
}

std::string deviceSupportSentence(const CUpti_Profiler_DeviceSupported_Params& support, const std::string& deviceName)
{
    if (support.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return {};
    const std::string lostText = lost(CuptiStage::Counters);
    const std::string device = deviceName.empty() ? std::string("this GPU") : deviceName;
    if (support.architecture == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
        return device + " is older than the CUPTI range profiler supports (compute capability 7.5 or newer is needed); "
            + lostText + ".";
    // The configurations CUPTI refuses that it has an error (and so a sentence) for, in the order they are told.
    using Params = CUpti_Profiler_DeviceSupported_Params;
    static constexpr struct {
        CUpti_Profiler_Support_Level Params::*flag;
        CUpti_Profiler_Support_Level level;
        CUptiResult error;
    } kRefusals[] = {
        { &Params::vGpu, CUPTI_PROFILER_CONFIGURATION_DISABLED,
            CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES },
        { &Params::vGpu, CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED, CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED },
        { &Params::wsl, CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED, CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED },
        { &Params::confidentialCompute, CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED,
            CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED },
        { &Params::cmp, CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED, CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED },
        { &Params::sli, CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED, CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED },
    };
    for (const auto& refusal : kRefusals) {
        if (support.*refusal.flag == refusal.level)
            return cuptiErrorSentence(refusal.error, CuptiStage::Counters, {});
    }
    return "CUPTI reports that " + device + " cannot be profiled in its present configuration (MIG instances cannot); "
        + lostText + ".";
}

std::string unsupportedChipSentence(const std::string& chip, const std::string& reason)
{
    return "Ridgeline has no counter set for the " + chip + " chip (" + reason
        + "): use --metrics with metric names this chip has, or --metrics none; " + lost(CuptiStage::Counters) + ".";
}

} // namespace ridgeline::inject

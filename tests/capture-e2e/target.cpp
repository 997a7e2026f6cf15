// SPDX-License-Identifier: MIT
// The program the end-to-end capture tests run under `ridgeline capture`: ordinary CUDA driver API
// and NVTX code, linked against the stand-in libcuda.so.1 (fakecuda.cpp), so that it "runs"
// kernels, copies, memsets, NVTX ranges, threads, graphs, a forked child, a crash. Modes:
//   all                 everything below once, on two GPUs, from four threads
//   threads N M         N threads launching M sgemm kernels each, on one context
//   gate N              one thread launches N sgemm kernels while another keeps launching through
//                       cuLaunch, cuLaunchGrid(Async), cuGraphLaunch and the multi-device launch
//   graph N             N launches of a graph of three kernel nodes (small, triad, sgemm)
//   fork                launches, forks a child that launches (and exits) without exec, launches more
//   forkexec            the same, but the child execs this program in mode `child`
//   child               three small kernels
//   hang N              N small kernels and copies, then sleeps (to be killed with SIGKILL)
//   segv N | abort N    N small kernels, copies and NVTX ranges, then a fault on a PROT_NONE page
//                       (or abort()); no allocation may happen after that (checked below)
//   nccl                NCCL API calls with their NVTX payloads around NCCL kernels (target_nccl.cpp)
// Exit status 0 unless a CUDA call failed (then 2, with the call on stderr).
// The legacy launches (cuLaunch, cuLaunchGrid, the multi-device launch) are deprecated, and used on purpose.
#define CUDA_ENABLE_DEPRECATED 1
#include "sanitizers.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cupti_runtime_cbid.h>
#include <fcntl.h>
#include <nvtx3/nvToolsExt.h>
#include <string>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern "C" int ridgelineFakeRuntimeCall(std::uint32_t cbid, const char* function, int (*body)(void*), void* argument);

namespace {

// --- No allocation after the crash starts -------------------------------------------------------
// A fatal-signal handler may not allocate (malloc is not async-signal-safe): once g_crashing is
// set, right before the fault, every allocation is written to the ledger with write(2). The test
// fails if the ledger has such a line. Not under AddressSanitizer, which owns malloc.
std::atomic<bool> g_crashing { false };
int g_ledger = -1;

[[maybe_unused]] void noteAllocation(const char* function)
{
    if (!g_crashing.load(std::memory_order_relaxed) || g_ledger < 0)
        return;
    char line[128];
    const int n = std::snprintf(line, sizeof line, "alloc-in-signal\t%d\t%s\n", static_cast<int>(getpid()), function);
    if (n > 0)
        (void)::write(g_ledger, line, static_cast<std::size_t>(n));
}

int g_failures = 0;

void check(CUresult r, const char* what)
{
    if (r != CUDA_SUCCESS) {
        std::fprintf(stderr, "capture_e2e_target: %s failed (%d)\n", what, static_cast<int>(r));
        ++g_failures;
    }
}

#define CHECK(call) check((call), #call)

struct Kernels {
    CUfunction triad = nullptr, sgemm = nullptr, hgemm = nullptr, dgemm = nullptr, small = nullptr, child = nullptr;
};

CUcontext g_context[2] = {};
Kernels g_kernels;

// `threadName`: this thread's NVTX name, given right after cuInit (which enables the records)
// and before its first CUDA call, as a name given later is not recorded.
void setUp(int devices, const char* threadName = nullptr)
{
    CHECK(cuInit(0));
    if (threadName != nullptr)
        nvtxNameOsThreadA(static_cast<std::uint32_t>(syscall(SYS_gettid)), threadName);
    int count = 0;
    CHECK(cuDeviceGetCount(&count));
    for (int d = 0; d < devices && d < count; ++d) {
        CUdevice device = 0;
        CHECK(cuDeviceGet(&device, d));
        CHECK(cuDevicePrimaryCtxRetain(&g_context[d], device));
    }
    CHECK(cuCtxSetCurrent(g_context[0]));
    CUmodule module = nullptr;
    CHECK(cuModuleLoadData(&module, "stand-in module"));
    CHECK(cuModuleGetFunction(&g_kernels.triad, module, "_Z12stream_triadPfPKfS1_f"));
    CHECK(cuModuleGetFunction(&g_kernels.sgemm, module, "_Z5sgemmiiiPKfS0_Pf"));
    CHECK(cuModuleGetFunction(&g_kernels.hgemm, module, "_Z5hgemmiiiPK6__halfS1_Pf"));
    CHECK(cuModuleGetFunction(&g_kernels.dgemm, module, "_Z5dgemmiiiPKdS0_Pd"));
    CHECK(cuModuleGetFunction(&g_kernels.small, module, "_Z5smalli"));
    CHECK(cuModuleGetFunction(&g_kernels.child, module, "_Z11child_worki"));
}

void launch(CUfunction f, unsigned grid, unsigned block, CUstream stream = nullptr)
{
    CHECK(cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, stream, nullptr, nullptr));
}

void nameThisThread(const char* name)
{
    nvtxNameOsThreadA(static_cast<std::uint32_t>(syscall(SYS_gettid)), name);
}

nvtxEventAttributes_t attributes(const char* message, std::uint32_t color)
{
    nvtxEventAttributes_t a {};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.colorType = color != 0 ? NVTX_COLOR_ARGB : NVTX_COLOR_UNKNOWN;
    a.color = color;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = message;
    return a;
}

int runtimeLaunchBody(void* argument)
{
    launch(*static_cast<CUfunction*>(argument), 64, 128);
    return 0;
}

CUgraphExec makeGraph()
{
    CUgraph graph = nullptr;
    CHECK(cuGraphCreate(&graph, 0));
    CUgraphNode previous = nullptr;
    for (CUfunction f : { g_kernels.small, g_kernels.triad, g_kernels.sgemm }) {
        CUDA_KERNEL_NODE_PARAMS p {};
        p.func = f;
        p.gridDimX = 256;
        p.gridDimY = p.gridDimZ = 1;
        p.blockDimX = 256;
        p.blockDimY = p.blockDimZ = 1;
        CUgraphNode node = nullptr;
        CHECK(cuGraphAddKernelNode(&node, graph, previous != nullptr ? &previous : nullptr, previous ? 1 : 0, &p));
        previous = node;
    }
    CUgraphExec exec = nullptr;
    CHECK(cuGraphInstantiate(&exec, graph, 0));
    return exec;
}

void worker(int index, int launches)
{
    char name[32];
    std::snprintf(name, sizeof name, "worker-%d", index);
    nameThisThread(name);
    CHECK(cuCtxSetCurrent(g_context[0]));
    CUstream stream = nullptr;
    CHECK(cuStreamCreate(&stream, 0));
    nvtxRangePushA(name);
    for (int i = 0; i < launches; ++i)
        launch(g_kernels.small, 32, 64, stream);
    launch(g_kernels.sgemm, 512, 256, stream);
    CHECK(cuStreamSynchronize(stream));
    nvtxRangePop();
}

int modeAll()
{
    setUp(2, "main");
    CUdeviceptr a = 0, b = 0;
    std::vector<char> host(1 << 20);
    CHECK(cuMemAlloc(&a, host.size()));
    CHECK(cuMemAlloc(&b, host.size()));

    const auto setup = attributes("setup", 0xff00ff00u);
    nvtxRangePushEx(&setup);
    CHECK(cuMemcpyHtoD(a, host.data(), host.size()));
    CHECK(cuMemsetD8(b, 0, host.size()));
    nvtxRangePop();
    nvtxMarkA("checkpoint");

    const nvtxDomainHandle_t domain = nvtxDomainCreateA("ridgeline-e2e");
    const auto inDomain = attributes("domain range", 0xff0000ffu);
    nvtxDomainRangePushEx(domain, &inDomain);
    CHECK(cuMemcpyDtoD(b, a, host.size()));
    nvtxDomainRangePop(domain);
    const nvtxRangeId_t phase = nvtxRangeStartA("async phase");

    for (int i = 0; i < 3; ++i)
        launch(g_kernels.triad, 4096, 256);
    for (int i = 0; i < 2; ++i)
        launch(g_kernels.sgemm, 1024, 256);
    for (int i = 0; i < 2; ++i)
        launch(g_kernels.hgemm, 528, 384);
    CHECK(cuLaunchCooperativeKernel(g_kernels.dgemm, 132, 1, 1, 256, 1, 1, 0, nullptr, nullptr));
    ridgelineFakeRuntimeCall(
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, "cudaLaunchKernel_v7000", runtimeLaunchBody, &g_kernels.small);

    CHECK(cuMemcpyPeer(a, g_context[1], b, g_context[0], 1 << 16));
    CHECK(cuCtxSetCurrent(g_context[1]));
    launch(g_kernels.triad, 2048, 256);
    CHECK(cuCtxSynchronize());
    CHECK(cuCtxSetCurrent(g_context[0]));

    std::vector<std::thread> threads;
    for (int t = 0; t < 3; ++t)
        threads.emplace_back(worker, t, 4);
    for (auto& t : threads)
        t.join();

    const CUgraphExec graph = makeGraph();
    CHECK(cuGraphLaunch(graph, nullptr));
    CHECK(cuGraphLaunch(graph, nullptr));

    CHECK(cuFuncSetBlockShape(g_kernels.small, 32, 1, 1));
    CHECK(cuLaunchGrid(g_kernels.small, 8, 1));

    CHECK(cuMemcpyDtoH(host.data(), a, host.size()));
    CHECK(cuCtxSynchronize());
    nvtxRangeEnd(phase);
    return g_failures == 0 ? 0 : 2;
}

int modeThreads(int threads, int launches)
{
    setUp(1);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([launches] {
            CHECK(cuCtxSetCurrent(g_context[0]));
            for (int i = 0; i < launches; ++i)
                launch(g_kernels.sgemm, 256, 256);
        });
    }
    for (auto& t : pool)
        t.join();
    CHECK(cuCtxSynchronize());
    return g_failures == 0 ? 0 : 2;
}

int modeGate(int launches)
{
    setUp(1);
    const CUgraphExec graph = makeGraph();
    CHECK(cuFuncSetBlockShape(g_kernels.small, 64, 1, 1));
    std::atomic<bool> done { false };
    std::thread other([&] {
        CHECK(cuCtxSetCurrent(g_context[0]));
        CUDA_LAUNCH_PARAMS multi {};
        multi.function = g_kernels.small;
        multi.gridDimX = multi.gridDimY = multi.gridDimZ = 1;
        multi.blockDimX = multi.blockDimY = multi.blockDimZ = 32;
        int round = 0;
        while (!done.load()) {
            switch (round++ % 5) {
            case 0:
                CHECK(cuLaunch(g_kernels.small));
                break;
            case 1:
                CHECK(cuLaunchGrid(g_kernels.small, 4, 1));
                break;
            case 2:
                CHECK(cuLaunchGridAsync(g_kernels.small, 4, 1, nullptr));
                break;
            case 3:
                CHECK(cuGraphLaunch(graph, nullptr));
                break;
            default:
                CHECK(cuLaunchCooperativeKernelMultiDevice(&multi, 1, 0));
            }
        }
    });
    for (int i = 0; i < launches; ++i)
        launch(g_kernels.sgemm, 1024, 256);
    done = true;
    other.join();
    return g_failures == 0 ? 0 : 2;
}

int modeGraph(int launches)
{
    setUp(1);
    const CUgraphExec graph = makeGraph();
    for (int i = 0; i < launches; ++i)
        CHECK(cuGraphLaunch(graph, nullptr));
    CHECK(cuCtxSynchronize());
    return g_failures == 0 ? 0 : 2;
}

int modeFork(const char* self, bool exec)
{
    setUp(1);
    launch(g_kernels.triad, 1024, 256);
    const pid_t child = fork();
    if (child == 0) {
        if (exec) {
            execl("/proc/self/exe", self, "child", static_cast<char*>(nullptr));
            _exit(126);
        }
        for (int i = 0; i < 4; ++i)
            launch(g_kernels.child, 16, 32);
        std::exit(g_failures == 0 ? 0 : 2);
    }
    int status = 0;
    waitpid(child, &status, 0);
    launch(g_kernels.sgemm, 512, 256);
    CHECK(cuCtxSynchronize());
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 3;
    return g_failures == 0 ? 0 : 2;
}

int modeChild()
{
    setUp(1);
    for (int i = 0; i < 3; ++i)
        launch(g_kernels.small, 8, 32);
    CHECK(cuCtxSynchronize());
    return g_failures == 0 ? 0 : 2;
}

int modeHang(int launches)
{
    setUp(1);
    CUdeviceptr a = 0;
    std::vector<char> host(4096);
    CHECK(cuMemAlloc(&a, host.size()));
    for (int i = 0; i < launches; ++i) {
        CHECK(cuMemcpyHtoD(a, host.data(), host.size()));
        launch(g_kernels.small, 16, 64);
    }
    sleep(20); // the test kills it long before
    return 4;
}

int modeCrash(bool segv, int launches)
{
    setUp(1);
    CUdeviceptr a = 0;
    std::vector<char> host(4096);
    CHECK(cuMemAlloc(&a, host.size()));
    for (int i = 0; i < launches; ++i) {
        nvtxRangePushA("step");
        CHECK(cuMemcpyHtoD(a, host.data(), host.size()));
        launch(g_kernels.small, 16, 64);
        nvtxRangePop();
        if (i % 50 == 49)
            usleep(60'000); // CUPTI's worker hands over the full buffers: some records reach the part file
    }
    void* page = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    g_crashing = true;
    if (segv)
        *static_cast<volatile int*>(page) = 1;
    std::abort();
}

} // namespace

#if !RIDGELINE_UNDER_ASAN
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);

void* malloc(std::size_t size) noexcept
{
    noteAllocation("malloc");
    return __libc_malloc(size);
}
void* calloc(std::size_t n, std::size_t size) noexcept
{
    noteAllocation("calloc");
    return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t size) noexcept
{
    noteAllocation("realloc");
    return __libc_realloc(p, size);
}
void free(void* p) noexcept
{
    noteAllocation("free");
    __libc_free(p);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept
{
    noteAllocation("aligned_alloc");
    return __libc_memalign(alignment, size);
}
void* memalign(std::size_t alignment, std::size_t size) noexcept
{
    noteAllocation("memalign");
    return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t size) noexcept
{
    noteAllocation("posix_memalign");
    void* p = __libc_memalign(alignment, size);
    if (p == nullptr)
        return ENOMEM;
    *out = p;
    return 0;
}
}
#endif

int modeNccl();

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: capture_e2e_target MODE [N [M]]\n");
        return 64;
    }
    if (const char* path = std::getenv("RIDGELINE_FAKE_LEDGER"); path != nullptr && *path != '\0')
        g_ledger = ::open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    const std::string mode = argv[1];
    const int n = argc > 2 ? std::atoi(argv[2]) : 0;
    const int m = argc > 3 ? std::atoi(argv[3]) : 0;
    if (mode == "all")
        return modeAll();
    if (mode == "threads")
        return modeThreads(n, m);
    if (mode == "gate")
        return modeGate(n);
    if (mode == "graph")
        return modeGraph(n);
    if (mode == "fork" || mode == "forkexec")
        return modeFork(argv[0], mode == "forkexec");
    if (mode == "child")
        return modeChild();
    if (mode == "hang")
        return modeHang(n);
    if (mode == "segv" || mode == "abort")
        return modeCrash(mode == "segv", n);
    if (mode == "nccl")
        return modeNccl();
    std::fprintf(stderr, "capture_e2e_target: unknown mode %s\n", mode.c_str());
    return 64;
}

// SPDX-License-Identifier: MIT
// Private to the stand-in libcuda.so.1 of the end-to-end capture tests (fakecuda.cpp,
// fakecuda_work.cpp; what the stand-in is: fakecuda.cpp): the driver's handles and state, and
// the API call reported to the tool on entry and exit. Nothing here is exported (hidden):
// libcuda.so.1 exports the driver API and the stand-ins' own entry points only.
#pragma once

#include "fakedriver.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#pragma GCC visibility push(hidden)
namespace fakecuda::libcuda {

constexpr CUresult kOk = CUDA_SUCCESS;

extern std::atomic<const Hooks*> g_hooks;
extern std::atomic<std::uint32_t> g_correlation;

struct Context {
    std::uint32_t id = 0;
    int device = 0;
};

struct Stream {
    std::uint32_t id = 0;
    Context* context = nullptr;
    std::uint64_t lastEnd = 0;
};

struct Function {
    std::string name;
    std::uint32_t block[3] = { 1, 1, 1 };
};

struct GraphNode {
    Function* function = nullptr;
    std::uint32_t grid[3] = { 1, 1, 1 };
    std::uint32_t block[3] = { 1, 1, 1 };
    std::uint32_t shared = 0;
    std::uint64_t id = 0;
};

struct Graph {
    std::uint32_t id = 0;
    std::vector<GraphNode> nodes {};
};

struct GraphExec {
    Graph* graph = nullptr;
};

// Never destroyed: the process's threads may still call in while statics die.
struct Driver {
    std::mutex mutex;
    bool initialised = false;
    CUresult initResult = kOk;
    std::vector<Context*> primary; // per device
    std::map<std::pair<Context*, std::uint32_t>, Stream*> defaultStreams;
    std::uint32_t nextContextId = 1;
    std::uint32_t nextStreamId = 7;
    std::uint32_t nextGraphId = 1;
    std::uint64_t nextAddress = 0x7f0000000000ULL;
    // Every handle the driver gave out stays reachable from here (never freed, as a program's
    // handles live as long as it does; no leak for LeakSanitizer to report).
    std::vector<std::shared_ptr<void>> handles;
};
Driver& driver();

// A new handle object, kept by the driver. Caller holds the driver's mutex when `locked`.
template <typename T, typename... Args> T* handle(bool locked, Args&&... args)
{
    auto object = std::make_shared<T>(T { std::forward<Args>(args)... });
    T* raw = object.get();
    if (locked) {
        driver().handles.push_back(std::move(object));
    } else {
        std::lock_guard lock(driver().mutex);
        driver().handles.push_back(std::move(object));
    }
    return raw;
}

extern thread_local Context* t_current;

// One driver API call, reported to the tool on entry and exit.
class Api {
public:
    Api(std::uint32_t cbid, const char* function, const void* params, const char* symbol = nullptr)
        : m_cbid(cbid)
        , m_function(function)
        , m_symbol(symbol)
        , m_params(params)
    {
        m_context = reinterpret_cast<CUcontext>(t_current);
        if (const Hooks* h = g_hooks.load(); h != nullptr && h->apiEnter != nullptr)
            m_correlation = h->apiEnter(CUPTI_CB_DOMAIN_DRIVER_API, cbid, function, symbol, m_context, params);
        else
            m_correlation = g_correlation++;
    }
    CUresult done(CUresult result)
    {
        if (const Hooks* h = g_hooks.load(); h != nullptr && h->apiExit != nullptr)
            h->apiExit(CUPTI_CB_DOMAIN_DRIVER_API, m_cbid, m_function, m_symbol, m_context, m_params,
                static_cast<int>(result));
        return result;
    }
    std::uint32_t correlation() const { return m_correlation; }

private:
    std::uint32_t m_cbid;
    const char* m_function;
    const char* m_symbol;
    const void* m_params;
    CUcontext m_context = nullptr;
    std::uint32_t m_correlation = 0;
};

} // namespace fakecuda::libcuda
#pragma GCC visibility pop

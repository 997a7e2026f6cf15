// SPDX-License-Identifier: MIT
// Internals of the Kineto importer: reading (gzip), parsing (simdjson On-Demand) and writing the
// session share these types.
#pragma once

#include "ridgeline/collectors/kinetoimporter.h"
#include "ridgeline/core/model.h"
#include "ridgeline/core/result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ridgeline::collectors::kineto {

// A file's JSON text with simdjson's padding after `size()` bytes (capacity >= size + padding).
core::Result<std::string> readTraceFile(const std::string& path);
// Decompresses gzip (one or more members) or copies plain text into a padded buffer.
core::Result<std::string> loadTraceBytes(std::string_view name, std::string_view bytes);

// What an NCCL kernel's args say about its collective.
struct CommInfo {
    std::string collective; // "allreduce" from the args, else from the kernel name ("AllReduce")
    std::int64_t inNelems = -1;
    std::int64_t outNelems = -1;
    int groupSize = 0;
    std::string dtype;
    std::string processGroup;
    std::string algorithm;
    std::string protocol;
};

struct TraceKernel {
    core::Kernel kernel; // deviceId: the file's device id; nameId: index into ParsedTrace::names
    std::optional<CommInfo> comm;
};

// One trace file, ids as the file has them: deviceId = the device ordinal, processId = the OS pid.
struct ParsedTrace {
    std::string name; // file name for messages
    std::vector<core::Device> devices; // from deviceProperties; id = the file's "id"
    bool hasDistributedInfo = false;
    int rank = -1;
    int worldSize = 0;
    std::string backend;
    std::string hostName;
    std::string baseTimeNs; // "baseTimeNanoseconds" as written, when present
    std::vector<std::string> names; // unique kernel names
    std::map<std::string, std::int64_t, std::less<>> nameIndex;
    std::vector<TraceKernel> kernels;
    std::vector<core::MemOp> memops;
    std::vector<core::ApiCall> apiCalls;
    std::vector<core::NvtxRange> ranges;
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> threadNames; // (pid, tid) -> name
    std::map<std::int64_t, std::string> processNames; // pid -> process_name
    std::map<std::int64_t, std::int64_t> hostPidEvents; // pid of CPU-side events -> count
    std::map<std::string, std::int64_t> otherAcceleratorOps; // e.g. "mtia_ccp_events" -> count
    std::int64_t events = 0;
    std::int64_t firstNs = 0;
    std::int64_t lastNs = 0;
    bool anyTime = false;
};

// Parses the padded JSON text of one trace. `progress` gets the fraction of bytes read.
core::Result<ParsedTrace> parseTrace(
    std::string_view name, const std::string& padded, const std::function<void(double)>& progress);

// Helpers (kinetoevents.cpp).
// A JSON number token in µs ("1712195495519689.047", "68.0", "1e3") as ns, rounded half away from
// zero; nullopt when it is not a number or does not fit.
std::optional<std::int64_t> microsToNs(std::string_view token);
// "Memcpy HtoD (Pinned -> Device)" -> kind HtoD, "pinned", "device".
void parseMemcpyName(std::string_view name, core::MemOp& op);
// NCCL kernels, as Holistic Trace Analysis classifies communication kernels.
bool isNcclKernelName(std::string_view name);
// "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(...)" -> collective, algorithm, protocol.
void parseNcclKernelName(std::string_view name, CommInfo& info);
// Bytes per element of a PyTorch dtype name ("Float", "BFloat16", "c10::Half", "float32"); 0 unknown.
int dtypeSize(std::string_view dtype);
bool equalsIgnoreCase(std::string_view a, std::string_view b);
// The content of a JSON string token (with its quotes), unescaped.
std::string unescapeJsonString(std::string_view token);

} // namespace ridgeline::collectors::kineto

// SPDX-License-Identifier: MIT
// Loads what the roofline needs from a session: devices, ceilings, counters, collectives and the
// figures from operator shapes.
#pragma once

#include "ridgeline/core/analysis/operatorshapes.h"
#include "ridgeline/core/analysis/roofline.h"

#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ridgeline::core::detail {

// What a kernel's own record tells the analysis; the rest (device, counters, ...) is the caller's.
KernelFacts launchFacts(const Kernel& kernel);

// A session's devices by id and their ceilings by device id.
Status loadDevices(SessionReader& reader, std::map<std::int64_t, Device>& devices,
    std::map<std::int64_t, std::vector<Ceiling>>& ceilings);

class SessionFacts {
public:
    static Result<SessionFacts> load(SessionReader& reader);

    KernelFacts factsFor(const Kernel& kernel) const;
    // Kernels whose verdict needs more than their duration: counted, modelled from shapes or carrying a collective.
    std::vector<std::int64_t> analysedKernelIds() const;

private:
    std::map<std::int64_t, Device> m_devices;
    std::map<std::int64_t, std::vector<Ceiling>> m_ceilings;
    std::unordered_map<std::int64_t, std::map<std::string, double, std::less<>>> m_metrics;
    std::unordered_map<std::int64_t, std::string> m_collectives;
    std::unordered_map<std::int64_t, std::string> m_names; // name id -> demangled (else raw) name
    std::vector<std::int64_t> m_ncclKernels; // kernels recognised as NCCL's by their name
    std::unordered_map<std::int64_t, CollectiveFigures> m_commFigures; // by kernel id
    // Kernels' shares of their PyTorch operators' work from shapes (operatorshapes.h: byKernel):
    // derived once per open reader (sessionOperatorShapes), shared by every load; never null.
    std::shared_ptr<const OperatorShapes> m_shapes = std::make_shared<const OperatorShapes>();
};

} // namespace ridgeline::core::detail

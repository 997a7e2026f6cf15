// SPDX-License-Identifier: MIT
// The PyTorch operators of a session in the Perfetto export (exportperfetto.cpp, issue 17): each
// operator is a slice on its host thread's track, where it nests with the other operators and the
// runtime calls it holds (as the PyTorch profiler's own traces nest them), and a flow arrow leads
// from the operator that launched a GPU op (innermost, operatorlinks.h) to that op.
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/store/sessionreader.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace ridgeline::core::detail {

class PerfettoOperators {
public:
    // Reads the operators, their texts and which GPU op each launched; nothing when there are none.
    Status load(SessionReader& reader);

    struct Slice {
        std::int64_t processId, threadId, startNs, endNs;
        std::size_t record; // into the loaded operators
    };
    // In start order, the longer first on equal starts (the order nesting slices are placed in).
    const std::vector<Slice>& slices() const { return m_slices; }
    std::string name(const Slice& slice) const;
    const char* category(const Slice& slice) const; // "cpu_op" or "python_function"
    nlohmann::json args(const Slice& slice) const;
    // The earliest start and latest end of any operator (for the trace's time base); empty: none.
    std::optional<std::pair<std::int64_t, std::int64_t>> span() const;

    // Drops the slices that do not overlap `window` (a profiler step's).
    void keepWithin(const TimeWindow& window);

    // Where a slice was written (its pid and tid in the trace).
    void placed(const Slice& slice, std::int64_t pid, std::int64_t tid);
    struct Origin {
        std::int64_t pid = 0, tid = 0, startNs = 0;
    };
    // The operator that launched a kernel (kernels.id) or a copy or memset (memops.id), once placed.
    std::optional<Origin> launcherOf(bool kernel, std::int64_t sourceId) const;

private:
    const std::string& text(std::int64_t id) const;

    std::vector<SessionReader::OperatorRecord> m_records; // by id
    std::vector<Slice> m_slices;
    std::vector<std::pair<std::int64_t, std::int64_t>> m_placed; // per record: (pid, tid); pid 0: not yet
    struct Launch {
        bool kernel;
        std::int64_t sourceId;
        std::size_t record;
        bool operator<(const Launch& o) const { return std::tie(kernel, sourceId) < std::tie(o.kernel, o.sourceId); }
    };
    std::vector<Launch> m_launches; // sorted
    std::map<std::int64_t, std::string> m_texts;
};

} // namespace ridgeline::core::detail

// SPDX-License-Identifier: MIT
// `ridgeline check`: validates a session and summarises it.
#pragma once

#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/store/sessionreader.h"

#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ridgeline::core {

// Values a Ridgeline writer never produces, found in a file that is otherwise sound: bad times,
// ids that point at nothing, NaN or infinite metrics, zero-sized grids, overlapping ops on a stream.
struct ValueWarning {
    std::string kind; // stable key: non_integer_time, negative_time, end_before_start, dangling_id, ...
    std::string what; // the same for a person
    std::int64_t count = 0;
    std::vector<std::string> examples; // the first few
};

struct SessionCheck {
    std::string path;
    int fileSchemaVersion = 0;
    std::map<std::string, std::string> meta;
    std::vector<Device> devices;
    TableCounts counts;
    TimeSpan span;
    std::vector<std::string> problems; // from the integrity check; empty when sound
    std::vector<ValueWarning> warnings; // from the value checks; a file with warnings is still readable

    bool complete() const;
};

// Opens (all validation of SessionReader::open), counts every table, runs the page-level
// integrity check and then the value checks. A file that cannot be opened is an Error; one that
// opens but has damaged pages is returned with its problems listed, one with odd values with its
// warnings listed.
Result<SessionCheck> checkSession(const std::string& path);
// The same on a session already open (SessionReader::open or openImage).
Result<SessionCheck> checkSession(SessionReader& reader);
// Only the value checks, on a session that SessionReader::open accepts (what the app runs on open,
// after the views show the session: SQL over every table takes minutes with 100 M GPU ops).
// `cancelled`, when set, is polled while the checks run (every 100,000 SQLite steps); once it returns
// true they stop with an InvalidArgument error.
Result<std::vector<ValueWarning>> checkSessionValues(
    const std::string& path, const std::function<bool()>& cancelled = {});
void writeSessionCheck(std::ostream& out, const SessionCheck& check, bool json);

} // namespace ridgeline::core

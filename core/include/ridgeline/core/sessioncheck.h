// SPDX-License-Identifier: MIT
// `ridgeline check`: validates a session and summarises it.
#pragma once

#include "ridgeline/core/model.h"
#include "ridgeline/core/result.h"
#include "ridgeline/core/sessionreader.h"

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ridgeline::core {

struct SessionCheck {
    std::string path;
    int fileSchemaVersion = 0;
    std::map<std::string, std::string> meta;
    std::vector<Device> devices;
    TableCounts counts;
    TimeSpan span;
    std::vector<std::string> problems; // from the integrity check; empty when sound

    bool complete() const;
};

// Opens (all validation of SessionReader::open), counts every table and runs the page-level
// integrity check. A file that cannot be opened is an Error; one that opens but has damaged
// pages is returned with its problems listed.
Result<SessionCheck> checkSession(const std::string& path);
void writeSessionCheck(std::ostream& out, const SessionCheck& check, bool json);

} // namespace ridgeline::core

// SPDX-License-Identifier: MIT
// The name of the host this process runs on, as gethostname() gives it; empty where it cannot be
// read. What a session records as its host, and what capture's %h stands for.
#pragma once

#include <string>

namespace ridgeline::core {

std::string hostName();

} // namespace ridgeline::core

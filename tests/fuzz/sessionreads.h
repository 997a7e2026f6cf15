// SPDX-License-Identifier: MIT
// What the session targets (fuzz_session: whole files; fuzz_session_rows: edited rows) do with a
// session that opened: `check` (integrity and value rules) on every input; on a quarter of the
// inputs each, chosen by the input's hash (fuzzsupport.h), `report` (kernels, operators, modules,
// collectives; table, CSV and JSON, with a baseline), the Perfetto and HTML exports, and what the
// app shows (the timeline at one zoom, the roofline chart, a kernel's details).
#pragma once

#include "ridgeline/core/store/sessionreader.h"

#include <string_view>

namespace ridgeline::fuzz {

void readSession(core::SessionReader& reader, std::string_view input);

} // namespace ridgeline::fuzz

// SPDX-License-Identifier: MIT
// What the session targets (fuzz_session: whole files; fuzz_session_rows: edited rows) do with a
// session that opened, the ways the CLI and the app read one: `check` (integrity and value rules;
// text and JSON); `report` (kernels in every format with a baseline, over a window, for one
// profiler step; by operator, by module, by collective); the Perfetto and HTML exports; the app's
// timeline (drawn at one zoom, a kernel found, a kernel's launches) and its roofline chart with a
// kernel's details. The replay program reads every input every way.
#pragma once

#include "ridgeline/core/store/sessionreader.h"

#include <string_view>

namespace ridgeline::fuzz {

// fuzz_session: `check` and one other way, chosen by the input's hash, per input.
void readSession(core::SessionReader& reader, std::string_view input);

// fuzz_session_rows: one way per input, `way` modulo readWays() (chosen by the input's first byte),
// so that an execution is one command or one view on an edited session.
unsigned readWays();
void readSessionOneWay(core::SessionReader& reader, unsigned way);

} // namespace ridgeline::fuzz

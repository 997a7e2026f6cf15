// SPDX-License-Identifier: MIT
// Splitting and quoting a command line the way a POSIX shell does, without running one: single
// quotes (everything literal), double quotes (backslash escapes only \ " $ ` and newline),
// backslash outside quotes. No expansion of any kind ($VAR, globs, ~) and no operators.
#pragma once

#include "ridgeline/core/base/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::core {

// The words of `text`; InvalidArgument for an unterminated quote or a trailing backslash.
Result<std::vector<std::string>> splitShellWords(std::string_view text);

// One line that splitShellWords turns back into exactly `words` (single-quoted where needed).
std::string joinShellWords(const std::vector<std::string>& words);

} // namespace ridgeline::core

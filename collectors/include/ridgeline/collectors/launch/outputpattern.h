// SPDX-License-Identifier: MIT
// `ridgeline capture -o` patterns: one file per rank of an srun/mpirun/torchrun job. `import` and
// `summarize` take them in their file names too (one file per task: run-%q{SLURM_PROCID}.ridge).
#pragma once

#include "ridgeline/core/base/result.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ridgeline::collectors {

inline constexpr const char* kDefaultOutputPattern = "ridgeline-%h-%p.ridge";

struct PatternContext {
    std::string host;
    long pid = 0;
    // Looks up an environment variable; nullopt when it is not set.
    std::function<std::optional<std::string>(const std::string&)> env;
    // What the pattern was given as, for the errors: "-o PATTERN: ...".
    std::string option = "-o";
};

// Expands %h (host name), %p (the launcher's pid), %q{VAR} (environment variable VAR) and %%
// (a literal %). An unset variable, an unknown or unterminated escape is an InvalidArgument with
// the reason. The process environment is used when `context.env` is empty.
core::Result<std::string> expandOutputPattern(std::string_view pattern, const PatternContext& context);

} // namespace ridgeline::collectors

// SPDX-License-Identifier: MIT
// File names of `import` and `summarize` take capture's -o patterns (%h host, %p pid, %q{VAR}
// environment variable, %% a literal %), so that every task of an srun job names its own file:
//   srun -n 64 ridgeline summarize runs/run-%q{SLURM_PROCID}.ridge
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::cli {

// Expands each name in place; a name that is not a valid pattern (an unset variable, a lone %):
// its error on stderr and ExitUsage; else none. `option` names where the names came from ("-o",
// or "" for the file arguments).
std::optional<int> expandNamePatterns(std::vector<std::string>& names, std::string_view option);
std::optional<int> expandNamePattern(std::string& name, std::string_view option);

} // namespace ridgeline::cli

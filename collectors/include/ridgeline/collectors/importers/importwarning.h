// SPDX-License-Identifier: MIT
// One warning of an import: a sentence for people, and its kind for code. Code never reads the
// sentence: `import --gpu` drops the warnings it answers by their kind.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::collectors {

enum class WarningKind {
    Other,
    // A GPU the file does not name or describe, so it has no datasheet ceilings: what `--gpu` answers.
    UnnamedGpu,
};

struct ImportWarning {
    WarningKind kind = WarningKind::Other;
    std::string text;

    // Implicit from a sentence: most warnings are of no kind that code acts on.
    ImportWarning(std::string sentence) // NOLINT(google-explicit-constructor)
        : text(std::move(sentence))
    { }
    ImportWarning(const char* sentence) // NOLINT(google-explicit-constructor)
        : text(sentence)
    { }
    ImportWarning(WarningKind warningKind, std::string sentence)
        : kind(warningKind)
        , text(std::move(sentence))
    { }
    friend bool operator==(const ImportWarning&, const ImportWarning&) = default;
};

using ImportWarnings = std::vector<ImportWarning>;

// The sentences joined by `separator` (the session's meta `warning` joins them with "; ").
inline std::string joinedText(const ImportWarnings& warnings, std::string_view separator)
{
    std::string text;
    for (const auto& warning : warnings) {
        if (!text.empty())
            text += separator;
        text += warning.text;
    }
    return text;
}

} // namespace ridgeline::collectors

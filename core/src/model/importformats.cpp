// SPDX-License-Identifier: MIT
#include "ridgeline/core/model/importformats.h"

#include <algorithm>
#include <cctype>

namespace ridgeline::core {

namespace {

bool endsWithIgnoringCase(std::string_view text, std::string_view suffix)
{
    return text.size() > suffix.size()
        && std::equal(
            suffix.begin(), suffix.end(), text.end() - static_cast<std::ptrdiff_t>(suffix.size()), [](char a, char b) {
                return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
            });
}

} // namespace

std::string sessionNameFor(std::string_view fileName)
{
    std::size_t longest = 0;
    for (const auto& format : kImportFormats)
        for (const std::string_view suffix : format.suffixes)
            if (suffix.size() > longest && endsWithIgnoringCase(fileName, suffix))
                longest = suffix.size();
    if (longest == 0 && endsWithIgnoringCase(fileName, ".gz"))
        longest = 3;
    fileName.remove_suffix(longest);
    if (endsWithIgnoringCase(fileName, ".pt.trace"))
        fileName.remove_suffix(std::string_view(".pt.trace").size());
    return std::string(fileName) + ".ridge";
}

} // namespace ridgeline::core

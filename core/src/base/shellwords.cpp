// SPDX-License-Identifier: MIT
#include "ridgeline/core/base/shellwords.h"

#include <utility>

namespace ridgeline::core {

namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\n';
}

} // namespace

Result<std::vector<std::string>> splitShellWords(std::string_view text)
{
    std::vector<std::string> words;
    std::string word;
    bool inWord = false; // a word has begun (also an empty one: '' or "")
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (isBlank(c)) {
            if (inWord)
                words.push_back(std::exchange(word, {}));
            inWord = false;
            continue;
        }
        inWord = true;
        if (c == '\\') {
            if (++i == text.size())
                return makeError(ErrorCode::InvalidArgument, "the arguments end with a lone backslash");
            if (text[i] != '\n') // backslash-newline joins lines
                word += text[i];
        } else if (c == '\'') {
            const auto close = text.find('\'', i + 1);
            if (close == std::string_view::npos)
                return makeError(ErrorCode::InvalidArgument, "a single quote (') in the arguments is not closed");
            word.append(text.substr(i + 1, close - i - 1));
            i = close;
        } else if (c == '"') {
            for (++i;; ++i) {
                if (i == text.size())
                    return makeError(ErrorCode::InvalidArgument, "a double quote (\") in the arguments is not closed");
                if (text[i] == '"')
                    break;
                if (text[i] == '\\' && i + 1 < text.size()
                    && std::string_view("\\\"$`\n").find(text[i + 1]) != std::string_view::npos) {
                    if (text[++i] != '\n')
                        word += text[i];
                } else {
                    word += text[i];
                }
            }
        } else {
            word += c;
        }
    }
    if (inWord)
        words.push_back(std::move(word));
    return words;
}

std::string joinShellWords(const std::vector<std::string>& words)
{
    std::string line;
    for (const auto& word : words) {
        if (!line.empty())
            line += ' ';
        const bool plain = !word.empty()
            && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                      "0123456789-_./=:,+@%")
                == std::string::npos;
        if (plain) {
            line += word;
            continue;
        }
        line += '\'';
        for (char c : word) {
            if (c == '\'')
                line += "'\\''";
            else
                line += c;
        }
        line += '\'';
    }
    return line;
}

} // namespace ridgeline::core

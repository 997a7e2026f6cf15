// SPDX-License-Identifier: MIT
// The capture dialog's argument splitter against what a POSIX shell does with the same line
// (expected words written by hand from the shell's quoting rules, POSIX.1-2017 §2.2).
#include "ridgeline/core/base/shellwords.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using ridgeline::core::joinShellWords;
using ridgeline::core::splitShellWords;
using Words = std::vector<std::string>;

namespace {

Words split(const std::string& text)
{
    auto words = splitShellWords(text);
    EXPECT_TRUE(words.ok()) << text << ": " << (words.ok() ? "" : words.error().message);
    return words.ok() ? words.value() : Words {};
}

} // namespace

TEST(ShellWords, SplitsLikeAShell)
{
    // The line a new user typed: QProcess::splitCommand gave 'echo, hi;, exit, 3'.
    EXPECT_EQ(split("-c 'echo hi; exit 3'"), (Words { "-c", "echo hi; exit 3" }));
    EXPECT_EQ(split("  a\tb \n c  "), (Words { "a", "b", "c" }));
    EXPECT_EQ(split(""), Words {});
    EXPECT_EQ(split("   "), Words {});
    EXPECT_EQ(split("\"two words\" x"), (Words { "two words", "x" }));
    EXPECT_EQ(split("'' \"\" x"), (Words { "", "", "x" }));
    EXPECT_EQ(split("a'b'\"c\"d"), (Words { "abcd" }));
    EXPECT_EQ(split("'it'\\''s'"), (Words { "it's" }));
    EXPECT_EQ(split("\"say \\\"hi\\\"\""), (Words { "say \"hi\"" }));
    // In double quotes a backslash escapes only \ " $ ` newline; elsewhere it stays.
    EXPECT_EQ(split("\"a\\b \\\\ \\$HOME\""), (Words { "a\\b \\ $HOME" }));
    EXPECT_EQ(split("'a\\b'"), (Words { "a\\b" }));
    EXPECT_EQ(split("a\\ b c\\'d"), (Words { "a b", "c'd" }));
    EXPECT_EQ(split("a\\\nb"), (Words { "ab" }));
    // No expansion: $VAR, globs and ~ reach the program as typed.
    EXPECT_EQ(split("$HOME *.txt ~"), (Words { "$HOME", "*.txt", "~" }));
}

TEST(ShellWords, RefusesUnterminatedQuotes)
{
    for (const char* bad : { "'open", "\"open", "a\\", "\"a\\\"" })
        EXPECT_TRUE(splitShellWords(bad).hasError()) << bad;
}

TEST(ShellWords, JoinRoundTrips)
{
    const std::vector<Words> cases {
        { "-c", "echo hi; exit 3" },
        { "", "plain", "it's", "\"quoted\"", "back\\slash", "$HOME", "tab\there", "new\nline", "*", "~" },
        {},
        { "--lr=0.1", "a/b.c", "x@y:z,1+2%" },
    };
    for (const auto& words : cases) {
        const auto line = joinShellWords(words);
        EXPECT_EQ(split(line), words) << line;
    }
    EXPECT_EQ(joinShellWords({ "-c", "echo hi" }), "-c 'echo hi'");
}

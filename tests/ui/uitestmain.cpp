// SPDX-License-Identifier: MIT
// main() of ridgeline_ui_tests: `ridgeline_ui_tests TEST [Qt Test options]` runs the test class
// registered as TEST (uitest.h); `ridgeline_ui_tests --list` names them all.
#include "uitest.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace ridgeline::testing {
namespace {

std::map<std::string, UiTestRun>& registry()
{
    static std::map<std::string, UiTestRun> tests;
    return tests;
}

std::vector<std::string>& duplicates()
{
    static std::vector<std::string> names;
    return names;
}

} // namespace

bool registerUiTest(const char* name, UiTestRun run)
{
    if (!registry().emplace(name, run).second) {
        duplicates().emplace_back(name);
        return false;
    }
    return true;
}

} // namespace ridgeline::testing

int main(int argc, char** argv)
{
    using namespace ridgeline::testing;
    for (const std::string& name : duplicates())
        std::fprintf(stderr, "ridgeline_ui_tests: two test classes are registered as %s\n", name.c_str());
    if (!duplicates().empty())
        return 2;
    if (argc < 2 || std::strcmp(argv[1], "--list") == 0) {
        std::FILE* out = argc < 2 ? stderr : stdout;
        if (argc < 2)
            std::fprintf(out, "usage: ridgeline_ui_tests TEST [Qt Test options]; the tests:\n");
        for (const auto& [name, run] : registry())
            std::fprintf(out, "%s\n", name.c_str());
        return argc < 2 ? 2 : 0;
    }
    const auto test = registry().find(argv[1]);
    if (test == registry().end()) {
        std::fprintf(stderr, "ridgeline_ui_tests: no test is named '%s' (--list names them)\n", argv[1]);
        return 2;
    }
    // The test sees its own name as the program and the options after it, as it did as a program.
    std::vector<char*> args { argv[1] };
    args.insert(args.end(), argv + 2, argv + argc);
    args.push_back(nullptr);
    return test->second(static_cast<int>(args.size() - 1), args.data());
}

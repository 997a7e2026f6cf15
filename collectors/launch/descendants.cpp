// SPDX-License-Identifier: MIT
#include "descendants.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>

namespace ridgeline::collectors::detail {

namespace {

// The parent pid from /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces and ')'.
pid_t parentFromStat(const std::string& stat)
{
    const auto close = stat.rfind(')');
    if (close == std::string::npos || close + 4 >= stat.size())
        return -1;
    std::string_view rest(stat);
    rest.remove_prefix(close + 4); // ") S "
    int ppid = -1;
    if (std::from_chars(rest.data(), rest.data() + rest.size(), ppid).ec != std::errc())
        return -1;
    return ppid;
}

} // namespace

std::vector<pid_t> childrenOf(pid_t parent)
{
    std::vector<pid_t> children;
    std::error_code ec;
    for (std::filesystem::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
        const auto name = it->path().filename().string();
        int pid = 0;
        if (std::from_chars(name.data(), name.data() + name.size(), pid).ec != std::errc())
            continue;
        std::ifstream in(it->path() / "stat");
        std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (parentFromStat(stat) == parent)
            children.push_back(pid);
    }
    return children;
}

bool environmentHas(pid_t pid, const std::string& entry)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
    std::string variable;
    while (std::getline(in, variable, '\0')) {
        if (variable == entry)
            return true;
    }
    return false;
}

} // namespace ridgeline::collectors::detail

// SPDX-License-Identifier: MIT
#include "ridgeline/core/base/hostname.h"

#include <array>
#include <unistd.h>

namespace ridgeline::core {

std::string hostName()
{
    std::array<char, 256> buffer {};
    if (gethostname(buffer.data(), buffer.size() - 1) != 0)
        return {};
    return buffer.data();
}

} // namespace ridgeline::core

// SPDX-License-Identifier: MIT
// Moving a Result's value into the field that keeps it, or handing its error on:
//   RIDGELINE_TRY(detail::takeValue(reader.meta(), report.meta));
#pragma once

#include "ridgeline/core/base/result.h"

#include <utility>

namespace ridgeline::core::detail {

template <typename T, typename Target> Status takeValue(Result<T>&& result, Target& target)
{
    if (result.hasError())
        return result.error();
    target = std::move(result).value();
    return {};
}

} // namespace ridgeline::core::detail

// SPDX-License-Identifier: MIT
#include "ridgeline/core/base/heap.h"

#include <cstdlib> // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ridgeline::core {

void returnLargeBlocksToTheSystem()
{
#if defined(__GLIBC__)
    // Setting it stops the raising.
    mallopt(M_MMAP_THRESHOLD, 1024 * 1024);
#endif
}

} // namespace ridgeline::core

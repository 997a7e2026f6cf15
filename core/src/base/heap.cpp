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
    // Setting it, even to glibc's own starting value, stops the raising.
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

} // namespace ridgeline::core

// SPDX-License-Identifier: MIT
// The C library's heap, tuned for a process that streams a large input (import).
#pragma once

namespace ridgeline::core {

// Large blocks (1 MB and more) come from the system and go back to it when freed, for the rest of
// the process. By default glibc raises that threshold each time such a block is freed (up to 32 MB),
// after which freed large blocks stay in the heap: an import holds them as resident memory (the
// 301 MB trace of docs/PERFORMANCE.md: 91 MB peak instead of 72 MB). Only for processes that
// stream: a report, which frees and allocates large blocks again and again, was 10-20 % slower with
// it. No effect where the C library is not glibc.
void returnLargeBlocksToTheSystem();

} // namespace ridgeline::core

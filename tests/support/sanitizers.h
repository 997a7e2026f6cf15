// SPDX-License-Identifier: MIT
// RIDGELINE_UNDER_ASAN: 1 in a build with AddressSanitizer, from GCC (__SANITIZE_ADDRESS__) or clang
// (__has_feature, which clang 14 has instead), else 0.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define RIDGELINE_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RIDGELINE_UNDER_ASAN 1
#endif
#endif
#ifndef RIDGELINE_UNDER_ASAN
#define RIDGELINE_UNDER_ASAN 0
#endif

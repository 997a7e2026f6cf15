// SPDX-License-Identifier: MIT
// RIDGELINE_UNDER_ASAN: 1 in a build with AddressSanitizer, else 0: the programs run with its
// allocator and quarantine. From RIDGELINE_ASAN_BUILD (tests/CMakeLists.txt: the tests' own code is not
// instrumented), GCC's __SANITIZE_ADDRESS__ or clang's __has_feature.
#pragma once

#if defined(RIDGELINE_ASAN_BUILD) || defined(__SANITIZE_ADDRESS__)
#define RIDGELINE_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RIDGELINE_UNDER_ASAN 1
#endif
#endif
#ifndef RIDGELINE_UNDER_ASAN
#define RIDGELINE_UNDER_ASAN 0
#endif

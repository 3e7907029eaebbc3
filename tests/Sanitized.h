#pragma once
// Which sanitizer this test is built with. GCC defines __SANITIZE_*__; Clang answers __has_feature.
//   JB_ADDRESS_SANITIZED: 1 in the asan preset (LeakSanitizer checks at exit), else 0.
//   kSanitized: this test runs in a sanitizer build (the asan and tsan presets), where pipes, event
//   loops and samplers run several times slower, so a timing-bound check widens its bound there
//   (and says so where it does).
#if defined(__SANITIZE_ADDRESS__)
#define JB_ADDRESS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JB_ADDRESS_SANITIZED 1
#endif
#endif
#ifndef JB_ADDRESS_SANITIZED
#define JB_ADDRESS_SANITIZED 0
#endif

#if defined(__SANITIZE_THREAD__)
#define JB_THREAD_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define JB_THREAD_SANITIZED 1
#endif
#endif
#ifndef JB_THREAD_SANITIZED
#define JB_THREAD_SANITIZED 0
#endif

inline constexpr bool kSanitized = JB_ADDRESS_SANITIZED || JB_THREAD_SANITIZED;

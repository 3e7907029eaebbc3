#pragma once
// kSanitized: this test runs in a sanitizer build (the asan and tsan presets), where pipes, event
// loops and samplers run several times slower, so a timing-bound check widens its bound there
// (and says so where it does). GCC defines __SANITIZE_*__; Clang answers __has_feature.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

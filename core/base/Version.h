#pragma once
#include <string_view>

namespace jb {
inline constexpr std::string_view kToolName = "joulebench";
inline constexpr std::string_view kToolVersion = JB_VERSION;
}  // namespace jb

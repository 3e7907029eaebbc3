#pragma once
// printf's formatting into a std::string: the one helper behind the figures core prints in words
// ("%.4g ms", "%+.1f %"), so a sentence's numbers read alike wherever core writes them.
#include <string>

namespace jb {

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 1, 2)))
#endif
std::string formatted(const char* format, ...);

}  // namespace jb

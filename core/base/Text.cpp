#include <jb/base/Text.h>

#include <cstdarg>
#include <cstdio>

namespace jb {

std::string formatted(const char* format, ...)
{
    char small[128];
    va_list args;
    va_start(args, format);
    va_list again;
    va_copy(again, args);
    const int n = std::vsnprintf(small, sizeof small, format, args);
    va_end(args);
    std::string out;
    if (n < 0) {
        out = {};
    } else if (std::size_t(n) < sizeof small) {
        out.assign(small, std::size_t(n));
    } else {
        out.resize(std::size_t(n) + 1);
        std::vsnprintf(out.data(), out.size(), format, again);
        out.resize(std::size_t(n));
    }
    va_end(again);
    return out;
}

}  // namespace jb

#pragma once
// A number that is the whole of a piece of text, parsed without locale or allocation.
#include <charconv>
#include <string_view>

namespace jb {

// True and v set where s is one number of T's kind and nothing else (no sign for unsigned T,
// no spaces); false and v unspecified otherwise.
template <class T>
bool parseWhole(std::string_view s, T& v)
{
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace jb

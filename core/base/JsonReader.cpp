#include <jb/base/JsonReader.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace jb {

namespace {

constexpr auto kReplaceBadUtf8 = nlohmann::json::error_handler_t::replace;

}  // namespace

std::string jsonPathKey(const std::string& path, const std::string& key)
{
    const bool plain = !key.empty() && !std::isdigit(static_cast<unsigned char>(key[0])) &&
        std::all_of(key.begin(), key.end(),
                    [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    if (plain)
        return path + "." + key;
    return path + "[" + nlohmann::json(key).dump(-1, ' ', false, kReplaceBadUtf8) + "]";
}

std::string jsonPathIndex(const std::string& path, std::size_t i)
{
    return path + "[" + std::to_string(i) + "]";
}

void jsonFail(const std::string& path, const std::string& what)
{
    throw JsonReadError{path + ": " + what};
}

namespace jsonread {

template <class J>
std::string describe(const J& v)
{
    switch (v.type()) {
    case J::value_t::object:
        return v.empty() ? "an empty object" : "an object";
    case J::value_t::array:
        return v.empty() ? "an empty array" : "an array of " + std::to_string(v.size());
    case J::value_t::string: {
        std::string s = v.dump(-1, ' ', true, kReplaceBadUtf8);
        if (s.size() > 48)
            s = s.substr(0, 44) + "...\"";
        return s;
    }
    default:
        // Scalars as JSON writes them; no value read from text is non-finite.
        return v.dump(-1, ' ', true, kReplaceBadUtf8);
    }
}

template <class J>
void wrongType(const J& v, const std::string& path, const std::string& expected)
{
    jsonFail(path, "expected " + expected + ", found " + describe(v));
}

template <class J>
const J* member(const J& obj, const char* key)
{
    const auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

template <class J>
const J& need(const J& obj, const std::string& path, const char* key, const char* expected)
{
    const auto it = obj.find(key);
    if (it == obj.end())
        jsonFail(path, "missing key \"" + std::string(key) + "\" (" + expected + ")");
    return *it;
}

template <class J>
const J& asObject(const J& v, const std::string& path)
{
    if (!v.is_object())
        wrongType(v, path, "an object");
    return v;
}

template <class J>
const J& asArray(const J& v, const std::string& path, const char* expected)
{
    if (!v.is_array())
        wrongType(v, path, expected);
    return v;
}

template <class J>
std::int64_t asInt(const J& v, const std::string& path)
{
    if (v.is_number_integer()) {
        if (v.is_number_unsigned() &&
            v.template get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
            jsonFail(path, "expected an integer, found " + describe(v) + ", which does not fit in 64 bits");
        return v.template get<std::int64_t>();
    }
    wrongType(v, path, "an integer");
}

template <class J>
std::int64_t asIntAtLeast(const J& v, const std::string& path, std::int64_t min)
{
    const std::int64_t i = asInt(v, path);
    if (i < min)
        jsonFail(path, "expected an integer >= " + std::to_string(min) + ", found " + std::to_string(i));
    return i;
}

template <class J>
int asSmallInt(const J& v, const std::string& path)
{
    const std::int64_t x = asInt(v, path);
    if (x < std::numeric_limits<int>::min() || x > std::numeric_limits<int>::max())
        jsonFail(path, "expected an integer, found " + describe(v) + ", which is out of range");
    return int(x);
}

template <class J>
double asNumber(const J& v, const std::string& path)
{
    if (!v.is_number())
        wrongType(v, path, "a number");
    return v.template get<double>();
}

template <class J>
double asNumberAtLeast(const J& v, const std::string& path, double min, bool exclusive)
{
    const double d = asNumber(v, path);
    if (!std::isfinite(d) || (exclusive ? !(d > min) : !(d >= min)))
        wrongType(v, path,
                  std::string("a number ") + (exclusive ? "> " : ">= ") + nlohmann::json(min).dump());
    return d;
}

template <class J>
std::optional<double> asNumberOrNull(const J& v, const std::string& path)
{
    if (v.is_null())
        return std::nullopt;
    if (!v.is_number())
        wrongType(v, path, "a number or null");
    return v.template get<double>();
}

template <class J>
bool asBool(const J& v, const std::string& path)
{
    if (!v.is_boolean())
        wrongType(v, path, "true or false");
    return v.template get<bool>();
}

template <class J>
std::string asString(const J& v, const std::string& path, bool non_empty)
{
    if (!v.is_string())
        wrongType(v, path, "a string");
    std::string s = v.template get<std::string>();
    if (non_empty && s.empty())
        wrongType(v, path, "a non-empty string");
    return s;
}

template <class J>
std::optional<std::string> asStringOrNull(const J& v, const std::string& path)
{
    if (v.is_null())
        return std::nullopt;
    if (!v.is_string())
        wrongType(v, path, "a string or null");
    return v.template get<std::string>();
}

template <class J>
std::vector<std::string> asStrings(const J& v, const std::string& path, bool non_empty)
{
    if (!v.is_array())
        wrongType(v, path, "an array of strings");
    if (non_empty && v.empty())
        wrongType(v, path, "a non-empty array of strings");
    std::vector<std::string> out;
    out.reserve(v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        out.push_back(asString(v[i], jsonPathIndex(path, i)));
    return out;
}

template <class J>
void onlyKeys(const J& obj, const std::string& path, std::initializer_list<const char*> allowed)
{
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (it.key() == "comment")
            continue;
        const bool known =
            std::any_of(allowed.begin(), allowed.end(), [&](const char* a) { return it.key() == a; });
        if (!known) {
            std::string list;
            for (const char* a : allowed)
                list += (list.empty() ? "" : ", ") + std::string(a);
            jsonFail(jsonPathKey(path, it.key()), "unknown key; expected one of " + list + " (or comment)");
        }
    }
}

// The two JSON types JouleBench reads into.
#define JB_JSONREAD_INSTANTIATE(J)                                                                        \
    template std::string describe<J>(const J&);                                                         \
    template void wrongType<J>(const J&, const std::string&, const std::string&);                      \
    template const J* member<J>(const J&, const char*);                                                 \
    template const J& need<J>(const J&, const std::string&, const char*, const char*);                 \
    template const J& asObject<J>(const J&, const std::string&);                                        \
    template const J& asArray<J>(const J&, const std::string&, const char*);                            \
    template std::int64_t asInt<J>(const J&, const std::string&);                                       \
    template std::int64_t asIntAtLeast<J>(const J&, const std::string&, std::int64_t);                  \
    template int asSmallInt<J>(const J&, const std::string&);                                           \
    template double asNumber<J>(const J&, const std::string&);                                          \
    template double asNumberAtLeast<J>(const J&, const std::string&, double, bool);                     \
    template std::optional<double> asNumberOrNull<J>(const J&, const std::string&);                     \
    template bool asBool<J>(const J&, const std::string&);                                              \
    template std::string asString<J>(const J&, const std::string&, bool);                               \
    template std::optional<std::string> asStringOrNull<J>(const J&, const std::string&);                \
    template std::vector<std::string> asStrings<J>(const J&, const std::string&, bool);                 \
    template void onlyKeys<J>(const J&, const std::string&, std::initializer_list<const char*>);

JB_JSONREAD_INSTANTIATE(nlohmann::json)
JB_JSONREAD_INSTANTIATE(nlohmann::ordered_json)

#undef JB_JSONREAD_INSTANTIATE

}  // namespace jsonread

}  // namespace jb

#include "jobs/JsonRead.h"

#include <cmath>

namespace jb {

void JsonRead::fail(const std::string& path, const std::string& what)
{
    if (error_.empty())
        error_ = origin_ + ": " + (path.empty() ? std::string("(top level)") : path) + ": " + what;
}

std::string JsonRead::typeName(const nlohmann::json& v)
{
    switch (v.type()) {
    case nlohmann::json::value_t::null:
        return "null";
    case nlohmann::json::value_t::object:
        return "an object";
    case nlohmann::json::value_t::array:
        return "an array";
    case nlohmann::json::value_t::string:
        return "a string";
    case nlohmann::json::value_t::boolean:
        return "a boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
        return "a number";
    default:
        return "a value of another kind";
    }
}

bool JsonRead::object(const nlohmann::json& v, const std::string& path)
{
    if (v.is_object())
        return true;
    fail(path, "expected an object, found " + typeName(v));
    return false;
}

std::optional<std::string> JsonRead::string(const nlohmann::json& v, const std::string& path, bool non_empty)
{
    if (!v.is_string()) {
        fail(path, "expected a string, found " + typeName(v));
        return std::nullopt;
    }
    std::string s = v.get<std::string>();
    if (non_empty && s.empty()) {
        fail(path, "expected a non-empty string");
        return std::nullopt;
    }
    return s;
}

std::optional<double> JsonRead::number(const nlohmann::json& v, const std::string& path, double min,
                                       bool min_exclusive)
{
    if (!v.is_number()) {
        fail(path, "expected a number, found " + typeName(v));
        return std::nullopt;
    }
    const double d = v.get<double>();
    if (!std::isfinite(d) || (min_exclusive ? !(d > min) : !(d >= min))) {
        fail(path,
             std::string("expected a number ") + (min_exclusive ? "> " : ">= ") + nlohmann::json(min).dump() +
                 ", found " + v.dump());
        return std::nullopt;
    }
    return d;
}

std::optional<std::int64_t> JsonRead::integer(const nlohmann::json& v, const std::string& path,
                                              std::int64_t min)
{
    if (!v.is_number_integer() && !v.is_number_unsigned()) {
        fail(path, "expected an integer, found " + (v.is_number() ? v.dump() : typeName(v)));
        return std::nullopt;
    }
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(INT64_MAX)) {
        fail(path, "expected an integer, found " + v.dump() + " (too large)");
        return std::nullopt;
    }
    const std::int64_t i = v.get<std::int64_t>();
    if (i < min) {
        fail(path, "expected an integer >= " + std::to_string(min) + ", found " + std::to_string(i));
        return std::nullopt;
    }
    return i;
}

std::optional<bool> JsonRead::boolean(const nlohmann::json& v, const std::string& path)
{
    if (!v.is_boolean()) {
        fail(path, "expected true or false, found " + typeName(v));
        return std::nullopt;
    }
    return v.get<bool>();
}

std::optional<std::vector<std::string>> JsonRead::strings(const nlohmann::json& v, const std::string& path,
                                                          bool non_empty)
{
    if (!v.is_array()) {
        fail(path, "expected an array of strings, found " + typeName(v));
        return std::nullopt;
    }
    if (non_empty && v.empty()) {
        fail(path, "expected a non-empty array of strings");
        return std::nullopt;
    }
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        auto s = string(v[i], index(path, i));
        if (!s)
            return std::nullopt;
        out.push_back(*s);
    }
    return out;
}

void JsonRead::onlyKeys(const nlohmann::json& obj, const std::string& path,
                        std::initializer_list<const char*> allowed)
{
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (it.key() == "comment")
            continue;
        bool known = false;
        for (const char* a : allowed)
            known = known || it.key() == a;
        if (!known) {
            std::string list;
            for (const char* a : allowed)
                list += (list.empty() ? "" : ", ") + std::string(a);
            fail(key(path, it.key()), "unknown key; expected one of " + list + " (or comment)");
            return;
        }
    }
}

const nlohmann::json* JsonRead::member(const nlohmann::json& obj, const char* k)
{
    auto it = obj.find(k);
    return it == obj.end() ? nullptr : &*it;
}

}  // namespace jb

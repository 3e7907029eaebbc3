#pragma once
// The one typed JSON reader of every file JouleBench reads (records, journals, job files,
// manifests): one path style and one wording. A path starts at "$", the file's top level:
// `$.rounds[2].rapl`, `$.jobs[0].argv[1]`, `$.rounds[0]["rapl:psys"]`. A wrong value reads
// "<path>: expected <what>, found <the value>", e.g. `$.jobs[0].argv[1]: expected a string,
// found 1`.
//
// Readers read straight through: the first wrong value throws JsonReadError, and readJson turns
// it into an Error at the entry point ("<origin>: <path>: <what>"). So no reader checks twice,
// and a message always names the first thing wrong. The functions take nlohmann::json and
// nlohmann::ordered_json alike (records keep their key order; job files need not).
#include <jb/base/Result.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <exception>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace jb {

// Thrown by the readers below, caught by readJson (or by an entry point of its own).
struct JsonReadError {
    std::string message;
};

// A key or an index appended to a JSON path: "$.rounds" + "rapl" -> "$.rounds.rapl", a key that
// is not a plain name in brackets and quotes ("$.env[\"MY-VAR\"]").
std::string jsonPathKey(const std::string& path, const std::string& key);
std::string jsonPathIndex(const std::string& path, std::size_t i);

// Throws JsonReadError{"<path>: <what>"}.
[[noreturn]] void jsonFail(const std::string& path, const std::string& what);

namespace jsonread {

// A value as a message shows it: 5, "abc" (cut at 48 characters), an empty object, an array of 3.
template <class J> std::string describe(const J& v);
// Throws "<path>: expected <expected>, found <describe(v)>".
template <class J> [[noreturn]] void wrongType(const J& v, const std::string& path, const std::string& expected);

// The member, or nullptr where obj has no such key (obj is an object).
template <class J> const J* member(const J& obj, const char* key);
// The member; where absent, throws "<path>: missing key "<key>" (<expected>)".
template <class J> const J& need(const J& obj, const std::string& path, const char* key, const char* expected);

template <class J> const J& asObject(const J& v, const std::string& path);
// An array; where not, "expected <expected>".
template <class J> const J& asArray(const J& v, const std::string& path, const char* expected = "an array");
template <class J> std::int64_t asInt(const J& v, const std::string& path);
template <class J> std::int64_t asIntAtLeast(const J& v, const std::string& path, std::int64_t min);
template <class J> int asSmallInt(const J& v, const std::string& path);  // fits in an int
template <class J> double asNumber(const J& v, const std::string& path);
// A finite number >= min (or > min where exclusive).
template <class J> double asNumberAtLeast(const J& v, const std::string& path, double min, bool exclusive = false);
template <class J> std::optional<double> asNumberOrNull(const J& v, const std::string& path);
template <class J> bool asBool(const J& v, const std::string& path);
template <class J> std::string asString(const J& v, const std::string& path, bool non_empty = false);
template <class J> std::optional<std::string> asStringOrNull(const J& v, const std::string& path);
template <class J>
std::vector<std::string> asStrings(const J& v, const std::string& path, bool non_empty = false);
// Every key of the object at path is one of allowed ("comment" is always allowed).
template <class J>
void onlyKeys(const J& obj, const std::string& path, std::initializer_list<const char*> allowed);

}  // namespace jsonread

// Runs read (which reads with the functions above) and returns its value, or the first
// JsonReadError as an Error "<origin>: <message>" (just the message where origin is empty).
// Any other exception of the JSON library also becomes a message, never a crash.
template <class F>
auto readJson(const std::string& origin, F&& read) -> Result<std::invoke_result_t<F>>
{
    const std::string prefix = origin.empty() ? std::string() : origin + ": ";
    try {
        return read();
    } catch (const JsonReadError& e) {
        return Error{prefix + e.message};
    } catch (const std::exception& e) {
        return Error{prefix + "unreadable: " + e.what()};
    }
}

}  // namespace jb

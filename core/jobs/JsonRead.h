#pragma once
// Typed reads of JSON values that keep the first error with its JSON path ("jobs[2].argv[0]:
// expected a string, found a number"), so parsers read straight through and check once.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace jb {

class JsonRead {
public:
    explicit JsonRead(std::string origin) : origin_(std::move(origin)) {}

    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    // Records an error at path (only the first one is kept).
    void fail(const std::string& path, const std::string& what);

    static std::string typeName(const nlohmann::json& v);
    static std::string key(const std::string& path, const std::string& k)
    {
        return path.empty() ? k : path + "." + k;
    }
    static std::string index(const std::string& path, std::size_t i)
    {
        return path + "[" + std::to_string(i) + "]";
    }

    // Each returns nothing (and records an error) where v is not what was expected.
    bool object(const nlohmann::json& v, const std::string& path);
    std::optional<std::string> string(const nlohmann::json& v, const std::string& path,
                                      bool non_empty = false);
    std::optional<double> number(const nlohmann::json& v, const std::string& path, double min,
                                 bool min_exclusive);
    std::optional<std::int64_t> integer(const nlohmann::json& v, const std::string& path, std::int64_t min);
    std::optional<bool> boolean(const nlohmann::json& v, const std::string& path);
    std::optional<std::vector<std::string>> strings(const nlohmann::json& v, const std::string& path,
                                                    bool non_empty);
    // Every key of the object at path must be one of allowed ("comment" is always allowed).
    void onlyKeys(const nlohmann::json& obj, const std::string& path,
                  std::initializer_list<const char*> allowed);
    // The member or null when absent (obj must be an object).
    static const nlohmann::json* member(const nlohmann::json& obj, const char* k);

private:
    std::string origin_;
    std::string error_;
};

}  // namespace jb

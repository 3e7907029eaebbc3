#include <jb/record/RecordLoad.h>

#include <jb/record/RecordJson.h>

#include <charconv>

namespace jb {

namespace {

bool isWs(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

std::size_t skipWs(std::string_view t, std::size_t i)
{
    while (i < t.size() && isWs(t[i]))
        ++i;
    return i;
}

// A string starting at t[i] == '"': offset past its closing quote, npos if unterminated.
std::size_t skipString(std::string_view t, std::size_t i)
{
    for (++i; i < t.size(); ++i) {
        if (t[i] == '\\')
            ++i;
        else if (t[i] == '"')
            return i + 1;
    }
    return std::string_view::npos;
}

// Any JSON value starting at t[i]: offset past it, npos where it is cut short. Only the
// structure is followed; the values themselves are judged by the JSON parser later.
std::size_t skipValue(std::string_view t, std::size_t i)
{
    if (i >= t.size())
        return std::string_view::npos;
    if (t[i] == '"')
        return skipString(t, i);
    if (t[i] == '{' || t[i] == '[') {
        int depth = 0;
        while (i < t.size()) {
            const char c = t[i];
            if (c == '"') {
                i = skipString(t, i);
                if (i == std::string_view::npos)
                    return i;
                continue;
            }
            if (c == '{' || c == '[')
                ++depth;
            else if (c == '}' || c == ']') {
                if (--depth == 0)
                    return i + 1;
            }
            ++i;
        }
        return std::string_view::npos;
    }
    while (i < t.size() && !isWs(t[i]) && t[i] != ',' && t[i] != '}' && t[i] != ']')
        ++i;
    return i;
}

// A key of plain printable ASCII without escapes (what the writer produces for counter specs).
std::optional<std::string_view> plainKey(std::string_view t, std::size_t& i)
{
    if (i >= t.size() || t[i] != '"')
        return std::nullopt;
    const std::size_t start = ++i;
    for (; i < t.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(t[i]);
        if (c == '"')
            break;
        if (c == '\\' || c < 0x20 || c > 0x7e)
            return std::nullopt;
    }
    if (i >= t.size())
        return std::nullopt;
    const std::string_view key = t.substr(start, i - start);
    ++i;
    return key;
}

bool expect(std::string_view t, std::size_t& i, char c)
{
    i = skipWs(t, i);
    if (i >= t.size() || t[i] != c)
        return false;
    ++i;
    return true;
}

// [int, int, ...]: integers as JSON writes them (no leading zeros, no "-0", no fraction or
// exponent), each fitting in 64 bits.
bool intArray(std::string_view t, std::size_t& i, std::vector<std::int64_t>& out)
{
    if (!expect(t, i, '['))
        return false;
    i = skipWs(t, i);
    if (i < t.size() && t[i] == ']') {
        ++i;
        return true;
    }
    for (;;) {
        i = skipWs(t, i);
        const std::size_t start = i;
        if (i < t.size() && t[i] == '-')
            ++i;
        const std::size_t digits = i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9')
            ++i;
        const std::size_t n = i - digits;
        if (n == 0 || (t[digits] == '0' && (n > 1 || digits != start)))
            return false;
        if (i < t.size() && !isWs(t[i]) && t[i] != ',' && t[i] != ']')
            return false;  // a fraction, an exponent, or junk
        std::int64_t v = 0;
        const auto [p, ec] = std::from_chars(t.data() + start, t.data() + i, v);
        if (ec != std::errc{} || p != t.data() + i)
            return false;
        out.push_back(v);
        i = skipWs(t, i);
        if (i >= t.size())
            return false;
        if (t[i] == ',') {
            ++i;
            continue;
        }
        if (t[i] == ']') {
            ++i;
            return true;
        }
        return false;
    }
}

std::optional<std::vector<Interval>> columns(std::string_view t, std::size_t& i)
{
    if (!expect(t, i, '{'))
        return std::nullopt;
    std::vector<std::int64_t> cols[3];
    bool seen[3] = {false, false, false};
    static constexpr std::string_view kNames[3] = {"t0_ns", "t1_ns", "nj"};
    i = skipWs(t, i);
    if (i < t.size() && t[i] == '}')
        return std::nullopt;  // missing columns: loadRecord says which
    for (;;) {
        i = skipWs(t, i);
        const auto key = plainKey(t, i);
        if (!key)
            return std::nullopt;
        int c = -1;
        for (int k = 0; k < 3; ++k)
            if (*key == kNames[k])
                c = k;
        if (c < 0 || seen[c] || !expect(t, i, ':'))
            return std::nullopt;
        seen[c] = true;
        if (!intArray(t, i, cols[c]))
            return std::nullopt;
        i = skipWs(t, i);
        if (i < t.size() && t[i] == ',') {
            ++i;
            continue;
        }
        if (i < t.size() && t[i] == '}') {
            ++i;
            break;
        }
        return std::nullopt;
    }
    if (!seen[0] || !seen[1] || !seen[2] || cols[0].size() != cols[1].size() ||
        cols[0].size() != cols[2].size())
        return std::nullopt;
    std::vector<Interval> iv(cols[0].size());
    for (std::size_t k = 0; k < iv.size(); ++k)
        iv[k] = Interval{cols[0][k], cols[1][k], cols[2][k]};
    return iv;
}

}  // namespace

namespace {

// The raw keys of the top-level object, in order; none where it cannot be walked.
std::optional<std::vector<std::string_view>> topLevelKeys(std::string_view t)
{
    std::vector<std::string_view> keys;
    std::size_t i = 0;
    if (!expect(t, i, '{'))
        return std::nullopt;
    i = skipWs(t, i);
    if (i < t.size() && t[i] == '}')
        return keys;
    for (;;) {
        i = skipWs(t, i);
        if (i >= t.size() || t[i] != '"')
            return std::nullopt;
        const std::size_t k0 = i;
        i = skipString(t, i);
        if (i == std::string_view::npos)
            return std::nullopt;
        keys.push_back(t.substr(k0 + 1, i - k0 - 2));
        if (!expect(t, i, ':'))
            return std::nullopt;
        i = skipValue(t, skipWs(t, i));
        if (i == std::string_view::npos)
            return std::nullopt;
        i = skipWs(t, i);
        if (i < t.size() && t[i] == ',') {
            ++i;
            continue;
        }
        if (i < t.size() && t[i] == '}')
            return keys;
        return std::nullopt;
    }
}

}  // namespace

std::optional<std::size_t> findTopLevelValue(std::string_view t, std::string_view key)
{
    std::size_t i = 0;
    if (!expect(t, i, '{'))
        return std::nullopt;
    i = skipWs(t, i);
    if (i < t.size() && t[i] == '}')
        return std::nullopt;
    for (;;) {
        i = skipWs(t, i);
        if (i >= t.size() || t[i] != '"')
            return std::nullopt;
        const std::size_t k0 = i;
        i = skipString(t, i);
        if (i == std::string_view::npos)
            return std::nullopt;
        const std::string_view k = t.substr(k0 + 1, i - k0 - 2);
        if (!expect(t, i, ':'))
            return std::nullopt;
        i = skipWs(t, i);
        if (k == key)
            return i;
        i = skipValue(t, i);
        if (i == std::string_view::npos)
            return std::nullopt;
        i = skipWs(t, i);
        if (i < t.size() && t[i] == ',') {
            ++i;
            continue;
        }
        return std::nullopt;
    }
}

std::optional<ScannedSamples> scanSamples(std::string_view t, std::size_t i)
{
    ScannedSamples out;
    if (!expect(t, i, '{'))
        return std::nullopt;
    i = skipWs(t, i);
    if (i < t.size() && t[i] == '}') {
        out.end = i + 1;
        return out;
    }
    for (;;) {
        i = skipWs(t, i);
        const auto spec = plainKey(t, i);
        if (!spec || !expect(t, i, ':'))
            return std::nullopt;
        for (const auto& [s, _] : out.samples)
            if (s == *spec)
                return std::nullopt;  // a repeated key: the JSON parser decides which counts
        auto iv = columns(t, i);
        if (!iv)
            return std::nullopt;
        out.samples.emplace_back(std::string(*spec), std::move(*iv));
        i = skipWs(t, i);
        if (i < t.size() && t[i] == ',') {
            ++i;
            continue;
        }
        if (i < t.size() && t[i] == '}') {
            out.end = i + 1;
            return out;
        }
        return std::nullopt;
    }
}

std::optional<Record> parseRecordFast(std::string_view text)
{
    const auto at = findTopLevelValue(text, "samples");
    if (!at)
        return std::nullopt;
    auto scanned = scanSamples(text, *at);
    if (!scanned)
        return std::nullopt;
    std::string rest;
    rest.reserve(*at + 2 + (text.size() - scanned->end));
    rest.append(text.substr(0, *at));
    rest.append("{}");
    rest.append(text.substr(scanned->end));
    // Exactly one "samples" key, spelt plainly: with two, the JSON parser keeps the last one.
    const auto keys = topLevelKeys(rest);
    if (!keys)
        return std::nullopt;
    int n = 0;
    for (std::string_view k : *keys) {
        if (k.find('\\') != std::string_view::npos)
            return std::nullopt;
        n += k == "samples";
    }
    if (n != 1)
        return std::nullopt;
    Result<Record> r = parseRecordTree(rest);
    // Another "samples" key, or any error at all: the full reader has the last word.
    if (!r || !r->samples.empty())
        return std::nullopt;
    for (const auto& [spec, iv] : scanned->samples)
        if (!checkIntervals(iv, jsonPathKey("$.samples", spec)))
            return std::nullopt;
    r->samples = std::move(scanned->samples);
    return std::move(r).value();
}

LoadedFile loadRecordFile(const std::string& path)
{
    LoadedFile out;
    Result<std::string> bytes = readWholeFile(path);
    if (!bytes) {
        out.record = Error{bytes.error()};
        return out;
    }
    if (bytes->empty()) {
        out.record = Error{path + ": the file is empty"};
        return out;
    }
    if (std::optional<Record> fast = parseRecordFast(*bytes)) {
        out.record = std::move(*fast);
        out.fast_samples = true;
    } else {
        // Records without samples, anything unusual, and every error: the general reader,
        // and its own message.
        Result<Record> r = parseRecordTree(*bytes);
        out.record = r ? std::move(r) : Result<Record>(Error{path + ": " + r.error()});
    }
    if (out.record)
        out.bytes = std::move(bytes).value();
    return out;
}

}  // namespace jb

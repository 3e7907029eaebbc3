#include <jb/record/JsonText.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace jb {

namespace {

constexpr auto kReplaceBadUtf8 = ojson::error_handler_t::replace;

// Python's repr(float) and nlohmann's shortest form agree (same digits, same exponent style)
// except for magnitudes in [1e15, 1e16): Python writes those positionally.
std::string pythonFloat(double d)
{
    std::string s = ojson(d).dump();
    const auto e = s.find("e+15");
    if (e == std::string::npos)
        return s;
    std::string sign;
    std::string mant = s.substr(0, e);
    if (!mant.empty() && mant[0] == '-') {
        sign = "-";
        mant.erase(0, 1);
    }
    mant.erase(std::remove(mant.begin(), mant.end(), '.'), mant.end());
    // mant: the significant digits, the first of them standing for 10^15.
    std::string whole = mant.substr(0, std::min<std::size_t>(16, mant.size()));
    whole.resize(16, '0');
    const std::string frac = mant.size() > 16 ? mant.substr(16) : "0";
    return sign + whole + "." + frac;
}

void dumpTo(std::string& out, const ojson& j, int indent, int depth)
{
    const bool pretty = indent >= 0;
    auto newline = [&](int d) {
        if (pretty) {
            out += '\n';
            out.append(std::size_t(d * indent), ' ');
        }
    };
    switch (j.type()) {
    case ojson::value_t::object: {
        if (j.empty()) {
            out += "{}";
            return;
        }
        out += '{';
        bool first = true;
        for (const auto& [k, v] : j.items()) {
            if (!first)
                out += ',';
            first = false;
            newline(depth + 1);
            out += ojson(k).dump(-1, ' ', true, kReplaceBadUtf8);
            out += pretty ? ": " : ":";
            dumpTo(out, v, indent, depth + 1);
        }
        newline(depth);
        out += '}';
        return;
    }
    case ojson::value_t::array: {
        if (j.empty()) {
            out += "[]";
            return;
        }
        out += '[';
        bool first = true;
        for (const auto& v : j) {
            if (!first)
                out += ',';
            first = false;
            newline(depth + 1);
            dumpTo(out, v, indent, depth + 1);
        }
        newline(depth);
        out += ']';
        return;
    }
    case ojson::value_t::number_float:
        out += pythonFloat(j.get<double>());
        return;
    default:
        out += j.dump(-1, ' ', true, kReplaceBadUtf8);
        return;
    }
}

// 1-based line and column (in bytes) of the byte at 0-based offset pos.
std::string lineColumnAt(std::string_view text, std::size_t pos)
{
    pos = std::min(pos, text.size());
    const std::size_t line = 1 +
        std::size_t(std::count(text.begin(), text.begin() + std::ptrdiff_t(pos), '\n'));
    const std::size_t nl = pos == 0 ? std::string_view::npos : text.rfind('\n', pos - 1);
    const std::size_t column = nl == std::string_view::npos ? pos + 1 : pos - nl;
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Copying, comparing and destroying a JSON value recurse over its nesting: a hostile file
// nested a million deep would overflow the stack. No record comes near this depth.
constexpr int kMaxJsonDepth = 256;

Status checkNesting(std::string_view text)
{
    int depth = 0;
    bool inString = false, escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth)
                return Error{"JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels at " +
                             lineColumnAt(text, i) + ": not a record"};
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return Ok{};
}

}  // namespace

std::string dumpJson(const ojson& j, int indent)
{
    std::string out;
    dumpTo(out, j, indent, 0);
    return out;
}

Result<ojson> parseJsonText(std::string_view text)
{
    if (std::all_of(text.begin(), text.end(),
                    [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }))
        return Error{text.empty() ? "empty: no JSON at all" : "only white space: no JSON at all"};
    if (Status deep = checkNesting(text); !deep)
        return Error{deep.error()};
    try {
        return ojson::parse(text.begin(), text.end());
    } catch (const ojson::parse_error& e) {
        // e.byte is the 1-based offset of the last byte read; what() repeats nlohmann's own
        // position, so keep only its reason.
        std::string why = e.what();
        const auto at = why.find("parse error");
        const auto colon = why.find(": ", at == std::string::npos ? 0 : at);
        if (colon != std::string::npos)
            why = why.substr(colon + 2);
        const std::size_t pos = e.byte == 0 ? 0 : e.byte - 1;
        // Python's json writes NaN and Infinity for non-finite floats; JSON has no such words.
        const std::string_view rest = text.substr(std::min(pos, text.size()));
        if (rest.starts_with("NaN") || rest.starts_with("Infinity") || rest.starts_with("-Infinity"))
            why += " (NaN and Infinity are not JSON: the writer let a non-finite number through)";
        return Error{"broken JSON at " + lineColumnAt(text, pos) + ": " + why};
    } catch (const ojson::out_of_range& e) {
        // A number too large for a double ("1e400"): nlohmann names the literal, not where.
        std::string why = e.what();
        const auto q0 = why.find('\''), q1 = why.rfind('\'');
        std::string where;
        if (q0 != std::string::npos && q1 > q0 + 1) {
            const auto at = text.find(why.substr(q0 + 1, q1 - q0 - 1));
            if (at != std::string_view::npos)
                where = " at " + lineColumnAt(text, at);
        }
        const auto tag = why.find("] ");
        return Error{"broken JSON" + where + ": " + (tag == std::string::npos ? why : why.substr(tag + 2))};
    } catch (const std::exception& e) {
        return Error{std::string("broken JSON: ") + e.what()};
    }
}

Result<std::string> readWholeFile(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return Error{"cannot read " + path + ": " + std::strerror(errno)};
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        ::close(fd);
        return Error{"cannot read " + path + ": it is a folder, not a file"};
    }
    std::string data;
    if (st.st_size > 0)
        data.reserve(std::size_t(st.st_size));
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const std::string why = std::strerror(errno);
            ::close(fd);
            return Error{"cannot read " + path + ": " + why};
        }
        if (n == 0)
            break;
        data.append(buf, std::size_t(n));
    }
    ::close(fd);
    return data;
}

}  // namespace jb

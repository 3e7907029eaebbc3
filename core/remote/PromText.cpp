#include <jb/remote/PromText.h>

#include <cmath>
#include <cstdio>

namespace jb::remote {

namespace {

std::string escaped(const std::string& s, bool quote)
{
    std::string o;
    for (const char c : s) {
        if (c == '\\')
            o += "\\\\";
        else if (c == '\n')
            o += "\\n";
        else if (quote && c == '"')
            o += "\\\"";
        else
            o += c;
    }
    return o;
}

}  // namespace

void PromText::family(const std::string& name, const std::string& type, const std::string& help)
{
    text_ += QByteArray::fromStdString("# HELP " + name + " " + escaped(help, false) + "\n");
    text_ += QByteArray::fromStdString("# TYPE " + name + " " + type + "\n");
}

void PromText::sample(const std::string& name, const Labels& labels, double value)
{
    std::string s = name;
    if (!labels.empty()) {
        s += '{';
        for (std::size_t i = 0; i < labels.size(); ++i)
            s += (i ? "," : "") + labels[i].first + "=\"" + escaped(labels[i].second, true) + "\"";
        s += '}';
    }
    char v[64];
    if (std::isnan(value))
        std::snprintf(v, sizeof v, "NaN");
    else if (std::isinf(value))
        std::snprintf(v, sizeof v, value > 0 ? "+Inf" : "-Inf");
    else
        std::snprintf(v, sizeof v, "%.17g", value);
    text_ += QByteArray::fromStdString(s + " " + v + "\n");
}

}  // namespace jb::remote

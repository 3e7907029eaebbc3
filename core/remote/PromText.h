#pragma once
// The Prometheus text exposition format (version 0.0.4), written: metric families with their
// HELP and TYPE lines, label values escaped. RunServer's /metrics is written with it.
#include <QByteArray>

#include <string>
#include <utility>
#include <vector>

namespace jb::remote {

using Labels = std::vector<std::pair<std::string, std::string>>;

class PromText {
public:
    // Starts a family: type is "gauge" or "counter".
    void family(const std::string& name, const std::string& type, const std::string& help);
    // One sample of the family begun last (name: the family's, or with a suffix).
    void sample(const std::string& name, const Labels& labels, double value);
    const QByteArray& text() const { return text_; }

private:
    QByteArray text_;
};

}  // namespace jb::remote

#pragma once
// The remote run's wire format (docs/REMOTE.md): newline-delimited JSON over TCP, UTF-8, one
// object a line. The client's first line is its hello with the token; the server answers with
// its own hello, then every message of the run so far, then the rest as it happens. Every
// message has a "type"; a client skips types it does not know (a minor version adds types or
// keys, never changes one), and refuses a major version it does not know.
#include <jb/base/Result.h>

#include <QHostAddress>
#include <QString>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace jb::remote {

inline constexpr const char* kFormat = "joulebench-remote";
inline constexpr int kVersion = 1;  // major: a client refuses another
inline constexpr int kMinor = 2;    // minor: added message types or keys only
// The longest line either side accepts (a record at the end is one line: no limit there for
// the client; this bounds what a server reads before it knows who is talking).
inline constexpr int kMaxHelloBytes = 16 * 1024;

// Where a server listens: --serve [ADDR:]PORT.
struct ServeAddress {
    QHostAddress address = QHostAddress(QHostAddress::LocalHost);
    quint16 port = 0;  // 0: any free port (the one taken is printed)
    // Not a loopback address: the run can be reached from other machines (said aloud).
    bool exposed() const { return !address.isLoopback(); }
};
// "PORT", "ADDR:PORT" or "[V6ADDR]:PORT"; "localhost" is 127.0.0.1. The error names the part.
Result<ServeAddress> parseServeAddress(const std::string& text);

// A random token (32 hex digits from the system's generator).
std::string newToken();

// A message as one line (compact JSON and '\n').
QByteArray line(const nlohmann::ordered_json& message);

}  // namespace jb::remote

#include <jb/counters/GpuTime.h>

#include <QByteArray>
#include <QProcess>
#include <QStringList>

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>

namespace jb {

namespace {

// The decimal digits at the start of s (none: nullopt).
std::optional<std::int64_t> leadingNumber(std::string_view s, std::size_t* used = nullptr)
{
    std::int64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc{} || v < 0 || s.empty() || s.front() == '-')
        return std::nullopt;
    if (used)
        *used = std::size_t(r.ptr - s.data());
    return v;
}

// The pid of the node's first `"IOUserClientCreator" = "pid N,`, as the reference's regex.
std::optional<std::int64_t> creatorPid(std::string_view node)
{
    static constexpr std::string_view kKey = "\"IOUserClientCreator\" = \"pid ";
    for (auto at = node.find(kKey); at != std::string_view::npos; at = node.find(kKey, at + 1)) {
        const std::string_view rest = node.substr(at + kKey.size());
        std::size_t used = 0;
        const auto pid = leadingNumber(rest, &used);
        if (pid && used < rest.size() && rest[used] == ',')
            return pid;
    }
    return std::nullopt;
}

// Sums of counters a file hands us stop at the largest int64 instead of overflowing.
std::int64_t saturatingAdd(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r))
        return b > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

// Every `"accumulatedGPUTime"=N` of the node, summed: the entries of its AppUsage list (Apple
// silicon). A node without one may carry the time as its own top-level property,
// `"accumulatedGPUTime" = N` (said of Intel Macs' accelerator clients); that is read instead,
// never both, so a node is not counted twice.
std::int64_t accumulatedGpuTime(std::string_view node)
{
    static constexpr std::string_view kEntry = "\"accumulatedGPUTime\"=";
    static constexpr std::string_view kTopLevel = "\"accumulatedGPUTime\" = ";
    std::int64_t sum = 0;
    bool entries = false;
    for (auto at = node.find(kEntry); at != std::string_view::npos; at = node.find(kEntry, at + 1))
        if (const auto v = leadingNumber(node.substr(at + kEntry.size()))) {
            sum = saturatingAdd(sum, *v);
            entries = true;
        }
    if (entries)
        return sum;
    for (auto at = node.find(kTopLevel); at != std::string_view::npos; at = node.find(kTopLevel, at + 1))
        if (const auto v = leadingNumber(node.substr(at + kTopLevel.size())))
            sum = saturatingAdd(sum, *v);
    return sum;
}

}  // namespace

GpuTimes parseIoregGpuTimes(std::string_view text)
{
    // Each registry node starts at its "+-o " marker; a client's properties follow its marker
    // up to the next one.
    static constexpr std::string_view kNode = "+-o ";
    GpuTimes per_pid;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto next = text.find(kNode, start);
        const std::string_view node = text.substr(
            start, next == std::string_view::npos ? std::string_view::npos : next - start);
        if (const auto pid = creatorPid(node))
            per_pid[*pid] = saturatingAdd(per_pid[*pid], accumulatedGpuTime(node));
        if (next == std::string_view::npos)
            break;
        start = next + kNode.size();
    }
    return per_pid;
}

Result<GpuTimes> readGpuTimes(const std::string& ioreg_program)
{
    const QString program = QString::fromStdString(ioreg_program);
    const QStringList args{QStringLiteral("-r"), QStringLiteral("-c"), QStringLiteral("IOAccelerator"),
                           QStringLiteral("-l"), QStringLiteral("-w0")};
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted(5000))
        return Error{"cannot run " + ioreg_program +
                     " (the I/O Registry's GPU times): " + p.errorString().toStdString()};
    p.closeWriteChannel();
    if (!p.waitForFinished(15000)) {
        p.kill();
        p.waitForFinished(1000);
        return Error{ioreg_program + " did not finish within 15 s"};
    }
    if (p.exitStatus() != QProcess::NormalExit)
        return Error{ioreg_program + " crashed"};
    if (p.exitCode() != 0)
        return Error{ioreg_program + " exited with status " + std::to_string(p.exitCode()) + ": " +
                     QString::fromLocal8Bit(p.readAllStandardError()).trimmed().toStdString()};
    const QByteArray out = p.readAllStandardOutput();
    return parseIoregGpuTimes(std::string_view(out.constData(), std::size_t(out.size())));
}

}  // namespace jb

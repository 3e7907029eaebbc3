#include <jb/child/ChildServer.h>

#include <jb/child/Protocol.h>

#include <charconv>
#include <chrono>
#include <istream>
#include <ostream>

namespace jb {

Result<int> parseGo(std::string_view line)
{
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
        line.remove_suffix(1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
        line.remove_prefix(1);
    const std::string_view head = "go ";
    if (line.substr(0, head.size()) == head) {
        std::string_view n = line.substr(head.size());
        while (!n.empty() && n.front() == ' ')
            n.remove_prefix(1);
        int k = -1;
        const auto [p, ec] = std::from_chars(n.data(), n.data() + n.size(), k);
        if (ec == std::errc() && p == n.data() + n.size() && k >= 0)
            return k;
    }
    return Error{"expected 'go <k>' (k a non-negative integer) or 'exit', got " + quoteLine(line)};
}

int serveChild(std::string_view program, std::int64_t jobs, const std::function<Result<ChildBatch>(int k)>& work,
               std::istream& in, std::ostream& out, std::ostream& err)
{
    out << "ready " << jobs << '\n' << std::flush;
    std::string line;
    while (std::getline(in, line)) {
        if (line == "exit" || line == "exit\r")
            break;
        const auto k = parseGo(line);
        if (!k) {
            err << program << ": " << k.error() << '\n' << std::flush;
            return 4;
        }
        const auto t0 = std::chrono::steady_clock::now();
        auto batch = work(*k);
        const auto wall = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0);
        if (!batch) {
            err << program << ": " << batch.error() << '\n' << std::flush;
            return 5;
        }
        out << "done " << batch->decodes << ' ' << wall.count();
        if (!batch->note.empty())
            out << ' ' << batch->note;
        out << '\n' << std::flush;
    }
    return 0;
}

}  // namespace jb

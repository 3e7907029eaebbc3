#include <jb/counters/ProcStat.h>

#include <jb/counters/SysFile.h>

#include <cstring>

namespace jb {

Result<ProcStatFields> splitProcStat(std::string_view line)
{
    const auto open = line.find('(');
    const auto close = line.rfind(')');
    if (close == std::string_view::npos || open == std::string_view::npos || close < open)
        return Error{"no ')' closing the command name"};
    ProcStatFields f;
    f.pid = line.substr(0, open);
    while (!f.pid.empty() && f.pid.back() == ' ')
        f.pid.remove_suffix(1);
    std::string_view rest = line.substr(close + 1);
    for (;;) {
        const auto b = rest.find_first_not_of(" \n");
        if (b == std::string_view::npos)
            break;
        rest.remove_prefix(b);
        const auto end = rest.find_first_of(" \n");
        f.after.push_back(rest.substr(0, end));
        if (end == std::string_view::npos)
            break;
        rest.remove_prefix(end);
    }
    return f;
}

Result<std::string> readProcStat(const std::string& proc_root, std::int64_t pid)
{
    const std::string path = proc_root + "/" + std::to_string(pid) + "/stat";
    std::string text;
    if (const int e = readSysFile(path, text); e != 0)
        return Error{"cannot read " + path + ": " + std::strerror(e)};
    return text;
}

}  // namespace jb

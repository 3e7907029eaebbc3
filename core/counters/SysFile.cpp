#include <jb/counters/SysFile.h>

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace jb {

int readSysFile(const std::string& path, std::string& text)
{
    text.clear();
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int e = errno;
            ::close(fd);
            return e;
        }
        if (n == 0)
            break;
        text.append(buf, std::size_t(n));
    }
    ::close(fd);
    return 0;
}

std::string trimmed(const std::string& text)
{
    const char* ws = " \t\r\n\v\f";
    const auto b = text.find_first_not_of(ws);
    if (b == std::string::npos)
        return {};
    const auto e = text.find_last_not_of(ws);
    return text.substr(b, e - b + 1);
}

}  // namespace jb

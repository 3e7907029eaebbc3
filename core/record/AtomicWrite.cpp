#include <jb/record/AtomicWrite.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace jb {

namespace {

// The process umask without changing it (umask() can only be read by setting it, which races
// with other threads creating files): Linux reports it in /proc/self/status.
mode_t currentUmask()
{
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("Umask:", 0) == 0)
            return mode_t(std::strtoul(line.c_str() + 6, nullptr, 8));
    return 022;
}

Status failure(const std::string& path, int err)
{
    return Error{"cannot write " + path + ": " + std::strerror(err)};
}

}  // namespace

std::string parentFolder(const std::string& path)
{
    const auto slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    if (slash == 0)
        return "/";
    return path.substr(0, slash);
}

Status checkFolderTakesFiles(const std::string& folder)
{
    const std::string dir = folder.empty() ? std::string(".") : folder;
    std::string name = dir + "/.joulebench-probe-XXXXXX";
    std::vector<char> tmpl(name.begin(), name.end());
    tmpl.push_back('\0');
    const int fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
    if (fd < 0)
        return Error{"cannot create files in " + dir + ": " + std::strerror(errno)};
    ::close(fd);
    ::unlink(tmpl.data());
    return Ok{};
}

Status writeFileAtomic(const std::string& path, std::string_view bytes)
{
    if (path.empty())
        return Error{"cannot write a file with an empty name"};
    const std::string folder = parentFolder(path);
    std::string name = path + ".tmp-XXXXXX";
    std::vector<char> tmpl(name.begin(), name.end());
    tmpl.push_back('\0');
    const int fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
    if (fd < 0)
        return failure(path, errno);
    const std::string tmp(tmpl.data());
    auto abandon = [&](int err) {
        ::close(fd);
        ::unlink(tmp.c_str());
        return failure(path, err);
    };

    struct stat old {};
    const mode_t mode = ::stat(path.c_str(), &old) == 0 ? (old.st_mode & 07777) : (0666 & ~currentUmask());
    if (::fchmod(fd, mode) != 0)
        return abandon(errno);

    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return abandon(errno);
        }
        if (n == 0)
            return abandon(EIO);
        done += std::size_t(n);
    }
    if (::fsync(fd) != 0)
        return abandon(errno);
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        return failure(path, err);
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        return failure(path, err);
    }
    // The rename lives in the folder: sync it so the new name survives a power cut. A folder
    // that cannot be opened for that (permissions) does not undo a finished write.
    const int dfd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return Ok{};
}

}  // namespace jb

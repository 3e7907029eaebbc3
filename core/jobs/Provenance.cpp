#include <jb/jobs/Provenance.h>

#include <jb/jobs/Subprocess.h>

#include <QByteArrayView>
#include <QCryptographicHash>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace jb {

namespace fs = std::filesystem;

namespace {

constexpr int kGitTimeoutMs = 60'000;
constexpr int kEnvironmentTimeoutMs = 300'000;

std::string hex(const QByteArray& digest)
{
    return digest.toHex().toStdString();
}

// Feeds a file's bytes to the hash; the error names the file.
Status addFile(QCryptographicHash& h, const std::string& path, std::uint64_t* bytes = nullptr)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Error{"cannot read '" + path + "': " + std::strerror(errno)};
    std::vector<char> buf(1 << 20);
    std::uint64_t total = 0;
    while (in) {
        in.read(buf.data(), std::streamsize(buf.size()));
        const std::streamsize n = in.gcount();
        if (n > 0) {
            h.addData(QByteArrayView(buf.data(), qsizetype(n)));
            total += std::uint64_t(n);
        }
    }
    if (in.bad())
        return Error{"error while reading '" + path + "'"};
    if (bytes)
        *bytes = total;
    return Ok{};
}

std::string firstLines(const std::string& text, int n)
{
    std::string out;
    std::size_t at = 0;
    for (int i = 0; i < n && at < text.size(); ++i) {
        const std::size_t end = text.find('\n', at);
        out += (out.empty() ? "" : "; ") +
            text.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    return out;
}

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
        s.pop_back();
    return s;
}

}  // namespace

Result<std::string> sha256File(const std::string& path)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    if (auto st = addFile(h, path); !st)
        return Error{st.error()};
    return hex(h.result());
}

std::string sha256Text(const std::string& text)
{
    return hex(QCryptographicHash::hash(QByteArrayView(text.data(), qsizetype(text.size())),
                                        QCryptographicHash::Sha256));
}

Result<nlohmann::json> hashTree(const std::string& path)
{
    std::error_code ec;
    if (!fs::is_directory(path, ec))
        return Error{"data tree '" + path + "' is not a folder"};
    std::vector<std::string> files;  // relative paths
    fs::recursive_directory_iterator it(path, fs::directory_options::none, ec), end;
    if (ec)
        return Error{"cannot list '" + path + "': " + ec.message()};
    for (; it != end; it.increment(ec)) {
        if (ec)
            return Error{"cannot list under '" + path + "': " + ec.message()};
        const fs::directory_entry& e = *it;
        std::error_code e1;
        // A symlinked folder is listed but not entered, and is not a file (as os.walk).
        if (e.is_directory(e1))
            continue;
        files.push_back(e.path().lexically_relative(path).string());
    }
    if (ec)
        return Error{"cannot list under '" + path + "': " + ec.message()};
    std::sort(files.begin(), files.end());  // byte order, as Python sorts the UTF-8 paths
    QCryptographicHash h(QCryptographicHash::Sha256);
    std::uint64_t bytes = 0;
    for (const std::string& rel : files) {
        h.addData(QByteArrayView(rel.data(), qsizetype(rel.size())));
        h.addData(QByteArrayView("\0", 1));
        std::uint64_t n = 0;
        if (auto st = addFile(h, (fs::path(path) / rel).string(), &n); !st)
            return Error{"data tree '" + path + "': " + st.error()};
        bytes += n;
    }
    nlohmann::json j;
    j["path"] = fs::canonical(path, ec).string();
    j["sha256"] = hex(h.result());
    j["num_files"] = files.size();
    j["bytes"] = bytes;
    return j;
}

Result<nlohmann::json> sourceReport(const ProvenanceSettings& p, bool hash_contents)
{
    nlohmann::json j;
    if (p.source.empty())
        return j;  // no provenance asked for: null in the manifest
    std::error_code ec;
    if (!fs::is_directory(p.source, ec))
        return Error{"provenance.source '" + p.source + "' is not a folder"};
    j["path"] = fs::canonical(p.source, ec).string();
    j["require_clean"] = p.require_clean;

    auto head = runCapture({"git", "-C", p.source, "rev-parse", "HEAD"}, "", kGitTimeoutMs);
    const bool is_git = head && head->exit_code == 0;
    if (!is_git) {
        const std::string why = head ? trimmed(firstLines(head->err, 2)) : head.error();
        if (p.require_clean)
            return Error{"refusing to run: provenance.source '" + p.source +
                         "' is not a git work tree with a commit (" + why +
                         "); commit it, or set provenance.require_clean to false"};
        j["git_commit"] = nullptr;
        j["git_note"] = why;
    } else {
        j["git_commit"] = trimmed(head->out);
        // The branch checked out, null on a detached HEAD (a CI checkout of a pull request).
        auto branch = runCapture({"git", "-C", p.source, "rev-parse", "--abbrev-ref", "HEAD"}, "", kGitTimeoutMs);
        const std::string b = branch && branch->exit_code == 0 ? trimmed(branch->out) : std::string();
        j["git_branch"] = b.empty() || b == "HEAD" ? nlohmann::json(nullptr) : nlohmann::json(b);
        auto status = runCapture({"git", "-C", p.source, "status", "--porcelain", "--untracked-files=no"}, "",
                                 kGitTimeoutMs);
        if (!status || status->exit_code != 0)
            return Error{"git status in '" + p.source +
                         "' failed: " + (status ? trimmed(firstLines(status->err, 2)) : status.error())};
        const std::string dirty = trimmed(status->out);
        j["git_dirty"] = !dirty.empty();
        if (!dirty.empty()) {
            if (p.require_clean)
                return Error{"refusing to run: provenance.source '" + p.source +
                             "' has uncommitted changes to tracked files (" + firstLines(dirty, 5) +
                             "); commit or revert them, or set provenance.require_clean to false"};
            j["git_dirty_files"] = firstLines(dirty, 50);
        }
    }
    if (!hash_contents)
        return j;

    nlohmann::json files = nlohmann::json::object();
    for (const std::string& f : p.files) {
        const std::string abs = (fs::path(p.source) / f).lexically_normal().string();
        auto h = sha256File(abs);
        if (!h)
            return Error{"provenance.files: " + h.error()};
        files[f] = *h;
    }
    j["files"] = files;
    nlohmann::json trees = nlohmann::json::object();
    for (const std::string& t : p.trees) {
        auto h = hashTree((fs::path(p.source) / t).lexically_normal().string());
        if (!h)
            return Error{"provenance.trees: " + h.error()};
        trees[t] = *h;
    }
    j["trees"] = trees;
    if (!p.environment_command.empty()) {
        auto env = runCapture(p.environment_command, p.source, kEnvironmentTimeoutMs);
        if (!env)
            return Error{"provenance.environment_command: " + env.error()};
        if (env->exit_code != 0)
            return Error{"provenance.environment_command (" + p.environment_command[0] + ") ended with " +
                         describeWaitStatus(env->exit_code) + ": " + trimmed(firstLines(env->err, 3))};
        j["environment_command"] = p.environment_command;
        j["environment_sha256"] = sha256Text(env->out);
        j["environment_lines"] = std::count(env->out.begin(), env->out.end(), '\n');
    }
    return j;
}

}  // namespace jb

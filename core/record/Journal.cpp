#include <jb/record/Journal.h>

#include <jb/record/AtomicWrite.h>
#include <jb/record/RecordJson.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace jb {

namespace {

constexpr const char* kMagic = "joulebench";
constexpr int kVersion = 1;

std::string lineError(const std::string& path, std::size_t line, const std::string& what)
{
    return path + ": line " + std::to_string(line) + ": " + what;
}

// parseJsonText counts lines within the one line it was given: keep only the column.
std::string inLine(const std::string& parseError)
{
    const std::string one = "at line 1, column ";
    const auto at = parseError.find(one);
    if (at == std::string::npos)
        return parseError;
    return parseError.substr(0, at) + "at column " + parseError.substr(at + one.size());
}

// The journals of this process's live Journal objects (device, inode): the only files
// removeOwnJournal removes. A live Journal holds its file open, so its inode cannot be reused by
// another file while it is listed here.
struct CreatedJournals {
    std::mutex mutex;
    std::set<std::pair<dev_t, ino_t>> files;
};

CreatedJournals& createdJournals()
{
    static CreatedJournals c;
    return c;
}

}  // namespace

Journal::Journal(std::string path, int fd, long long size) : path_(std::move(path)), fd_(fd), size_(size) {}

Journal::~Journal()
{
    if (fd_ < 0)
        return;
    if (struct stat st {}; ::fstat(fd_, &st) == 0) {
        CreatedJournals& c = createdJournals();
        const std::lock_guard<std::mutex> lock(c.mutex);
        c.files.erase({st.st_dev, st.st_ino});
    }
    ::close(fd_);
}

Result<std::unique_ptr<Journal>> Journal::create(const std::string& path, const Record& header)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        if (errno == EEXIST)
            return Error{"cannot create journal " + path +
                         ": the file exists (it may hold a run that did not finish: "
                         "'joulebench-cli recover " +
                         path + "' rebuilds its record; remove it to start anew)"};
        return Error{"cannot create journal " + path + ": " + std::strerror(errno)};
    }
    // Held while the run lives: a reader (the GUI's recovery on start) leaves a locked journal
    // alone, and the lock goes with the process however it ends.
    ::flock(fd, LOCK_EX | LOCK_NB);
    std::unique_ptr<Journal> j(new Journal(path, fd, 0));

    Record bare = header;
    bare.rounds.clear();
    bare.samples.clear();
    bare.loaded_summary.reset();
    ojson rec = toJson(bare);
    rec.erase("summary");  // derived from rounds; the recovered record gets a fresh one
    ojson line = ojson::object();
    line["journal"] = kMagic;
    line["version"] = kVersion;
    line["record"] = std::move(rec);
    if (Status st = j->writeLine(dumpJson(line, -1)); !st) {
        j.reset();
        ::unlink(path.c_str());
        return Error{st.error()};
    }
    // Registered once whole: the only journals removeOwnJournal may remove later.
    if (struct stat st {}; ::fstat(fd, &st) == 0) {
        CreatedJournals& c = createdJournals();
        const std::lock_guard<std::mutex> lock(c.mutex);
        c.files.insert({st.st_dev, st.st_ino});
    }
    // The new name lives in the folder: sync it so the file itself survives a power cut.
    const int dfd = ::open(parentFolder(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return j;
}

Status Journal::writeLine(const std::string& text)
{
    const std::string line = text + "\n";
    std::size_t done = 0;
    int err = 0;
    while (done < line.size()) {
        const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            err = n < 0 ? errno : EIO;
            break;
        }
        done += std::size_t(n);
    }
    if (err == 0 && ::fdatasync(fd_) != 0)
        err = errno;
    if (err != 0) {
        // Cut a half-written line off, so the next line does not follow a torn one.
        if (done > 0 && ::ftruncate(fd_, off_t(size_)) != 0)
            return Error{"cannot write journal " + path_ + ": " + std::strerror(err) +
                         " (and the partial line could not be removed: " + std::strerror(errno) + ")"};
        return Error{"cannot write journal " + path_ + ": " + std::strerror(err)};
    }
    size_ += static_cast<long long>(line.size());
    return Ok{};
}

Status Journal::appendRound(const Round& round, const SamplesBySpec& samples_since_last)
{
    const int index = next_index_++;
    // The intervals of lines that were lost come first: each interval is written once, in order.
    SamplesBySpec samples = std::move(unwritten_);
    unwritten_.clear();
    for (const auto& [spec, iv] : samples_since_last) {
        auto it = std::find_if(samples.begin(), samples.end(), [&want = spec](const auto& p) { return p.first == want; });
        if (it == samples.end())
            samples.emplace_back(spec, iv);
        else
            it->second.insert(it->second.end(), iv.begin(), iv.end());
    }
    ojson line = ojson::object();
    line["index"] = index;
    line["round"] = roundToJson(round);
    ojson s = ojson::object();
    for (const auto& [spec, iv] : samples)
        s[spec] = intervalsToJson(iv);
    line["samples"] = std::move(s);
    if (Status st = writeLine(dumpJson(line, -1)); !st) {
        unwritten_ = std::move(samples);
        return st;
    }
    ++rounds_;
    return Ok{};
}

bool journalInUse(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool locked = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
    return locked;
}

bool removeOwnJournal(const std::string& path)
{
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    CreatedJournals& c = createdJournals();
    const std::lock_guard<std::mutex> lock(c.mutex);
    const auto it = c.files.find({st.st_dev, st.st_ino});
    if (it == c.files.end())
        return false;
    if (::unlink(path.c_str()) != 0)
        return false;
    c.files.erase(it);
    return true;
}

Result<Record> recoverJournal(const std::string& path)
{
    Result<std::string> text = readWholeFile(path);
    if (!text)
        return Error{text.error()};
    if (text->empty())
        return Error{path + ": the journal is empty (the run stopped before it wrote anything)"};

    // Lines; a last line without its newline is whole if it parses, torn if not.
    std::vector<std::string_view> lines;
    const std::string_view all(*text);
    for (std::size_t at = 0; at < all.size();) {
        const auto nl = all.find('\n', at);
        if (nl == std::string_view::npos) {
            lines.push_back(all.substr(at));
            break;
        }
        lines.push_back(all.substr(at, nl - at));
        at = nl + 1;
    }

    Result<ojson> head = parseJsonText(lines[0]);
    if (!head) {
        if (lines[0].starts_with("{\"journal\":\"joulebench\""))
            return Error{
                lineError(path, 1, "the journal's header is incomplete (the run stopped while writing it)")};
        // A whole JSON document (a record, written indented) is no journal: say what it is.
        if (Result<ojson> whole = parseJsonText(*text); whole && whole->is_object())
            return Error{path + ": not a JouleBench journal but " +
                         (whole->contains("rounds") ? std::string("a record: it needs no recovering ('joulebench-cli "
                                                                  "verify' and 'summary' read it)")
                                                    : std::string("a JSON document of another kind"))};
        return Error{lineError(path, 1, "not a JouleBench journal: " + inLine(head.error()))};
    }
    if (!head->is_object() || head->value("journal", ojson()) != kMagic)
        return Error{lineError(
            path, 1, "not a JouleBench journal (its first line has no \"journal\": \"joulebench\")")};
    const ojson& version = head->value("version", ojson());
    if (!version.is_number_integer() || version.get<std::int64_t>() != kVersion)
        return Error{lineError(path, 1,
                               "a journal of version " + dumpJson(version, -1) +
                                   "; this JouleBench reads version " + std::to_string(kVersion))};
    if (!head->contains("record"))
        return Error{lineError(path, 1, "the header has no \"record\"")};
    Result<Record> rec = recordFromJson((*head)["record"]);
    if (!rec)
        return Error{lineError(path, 1, "in \"record\": " + rec.error())};
    Record r = std::move(*rec);
    r.rounds.clear();
    r.samples.clear();
    r.loaded_summary.reset();

    std::int64_t next_index = 0;
    std::vector<std::int64_t> lost;  // rounds whose lines the run could not write
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const std::size_t lineNo = i + 1;
        const bool last = i + 1 == lines.size();
        if (lines[i].empty() && last)
            break;
        // A last line that parses whole lost at most its newline: its round is kept.
        Result<ojson> j = parseJsonText(lines[i]);
        if (!j) {
            if (last)
                break;  // the write the run was in when it stopped
            return Error{lineError(path, lineNo,
                                   inLine(j.error()) +
                                       "; only the last line of a journal may be torn, so this "
                                       "one is damaged and the rounds after it were not read")};
        }
        const ojson& o = *j;
        if (!o.is_object() || !o.contains("round"))
            return Error{lineError(path, lineNo, "not a round line (no \"round\" key)")};
        // Indices rise by one; a gap is a round whose line the run could not write.
        const ojson idx = o.value("index", ojson());
        if (!idx.is_number_integer() || idx.get<std::int64_t>() < next_index)
            return Error{lineError(path, lineNo,
                                   "$.index: expected " + std::to_string(next_index) + " or more, found " +
                                       dumpJson(idx, -1) + " (rounds out of order or repeated)")};
        for (std::int64_t k = next_index; k < idx.get<std::int64_t>(); ++k)
            lost.push_back(k);
        Result<Round> round = roundFromJson(o["round"], r.counters, "$.round");
        if (!round)
            return Error{lineError(path, lineNo, round.error())};
        if (o.contains("samples")) {
            const ojson& s = o["samples"];
            if (!s.is_object())
                return Error{lineError(
                    path, lineNo, "$.samples: expected an object, found " + jsonread::describe(s))};
            for (const auto& [spec, cols] : s.items()) {
                Result<std::vector<Interval>> iv = intervalsFromJson(cols, jsonPathKey("$.samples", spec));
                if (!iv)
                    return Error{lineError(path, lineNo, iv.error())};
                auto it = std::find_if(r.samples.begin(), r.samples.end(),
                                       [&want = spec](const auto& p) { return p.first == want; });
                if (it == r.samples.end()) {
                    r.samples.emplace_back(spec, std::move(*iv));
                    continue;
                }
                if (!iv->empty() && !it->second.empty() && iv->front().t0_ns < it->second.back().t1_ns)
                    return Error{lineError(path, lineNo,
                                           jsonPathKey("$.samples", spec) +
                                               ": starts before the samples of the line before it end "
                                               "(times must not go backwards)")};
                it->second.insert(it->second.end(), iv->begin(), iv->end());
            }
        }
        r.rounds.push_back(std::move(*round));
        next_index = idx.get<std::int64_t>() + 1;
    }
    r.status = "aborted";
    r.error = "recovered from journal " + path + ": the run did not finish";
    if (!lost.empty()) {
        std::string which;
        for (std::size_t k = 0; k < lost.size(); ++k)
            which += (k == 0 ? "" : k + 1 == lost.size() ? " and " : ", ") + std::to_string(lost[k] + 1);
        *r.error += "; round" + std::string(lost.size() == 1 ? " " : "s ") + which + (lost.size() == 1 ? " was" : " were") +
            " not journaled (the write failed)";
    }
    return r;
}

}  // namespace jb

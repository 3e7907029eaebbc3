#pragma once
// A crash-safe journal of a run, so that a run killed half-way (power cut, OOM kill, a
// crashed GUI) loses no finished round.
//
// The file is JSON lines, each written whole, flushed and fdatasync'ed before the call
// returns:
//   line 1:  {"journal": "joulebench", "version": 1, "record": <the record, no rounds>}
//   then:    {"index": i, "round": <round i>, "samples": {spec: {t0_ns, t1_ns, nj}}}
// where "samples" holds each whole-device counter's intervals appended since the round
// before (so each interval is written once). recoverJournal() rebuilds the record from every
// complete line; a torn last line (the write the crash interrupted) is ignored.
//
// Typical use by the session:
//   auto j = Journal::create(plan.journal_path, baseRecord());   // after the child is ready
//   ... each round: j->appendRound(round, samplesSinceLastRound);
//   ... at the end: write the final record (writeFileAtomic), then remove the journal file.
#include <jb/base/Result.h>
#include <jb/record/Record.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace jb {

using SamplesBySpec = std::vector<std::pair<std::string, std::vector<Interval>>>;

class Journal {
public:
    // Creates the file (never overwrites one: an existing journal may hold an unrecovered run)
    // and writes the header: `header` with its rounds, samples and summary left out.
    static Result<std::unique_ptr<Journal>> create(const std::string& path, const Record& header);
    ~Journal();
    Journal(const Journal&) = delete;
    Journal& operator=(const Journal&) = delete;

    // One line: the round and the intervals since the last call. Durable when it returns Ok.
    // After a failed write the file is cut back to its last whole line, so later rounds can
    // still be appended and recovered: each call is the run's next round (its "index" counts
    // every call, so a round whose line was lost leaves a gap and the rounds after it keep
    // their own indices), and the intervals of a lost line go with the next line written.
    Status appendRound(const Round& round, const SamplesBySpec& samples_since_last);

    const std::string& path() const { return path_; }
    int roundsWritten() const { return rounds_; }

private:
    Journal(std::string path, int fd, long long size);
    Status writeLine(const std::string& line);

    std::string path_;
    int fd_ = -1;
    long long size_ = 0;  // bytes of whole lines written
    int rounds_ = 0;      // lines written
    int next_index_ = 0;  // rounds offered (written or lost)
    SamplesBySpec unwritten_;  // intervals of lines that could not be written
};

// The record as far as the journal goes: the header's record with every complete round and
// all journaled samples, status "aborted", error "recovered from journal <path>: the run did
// not finish" (and which rounds' lines the run could not write: "; round 2 was not journaled"). Errors name the path and line (a foreign file, a broken header, a broken line
// that is not the last one, samples that go back in time).
Result<Record> recoverJournal(const std::string& path);

// True while a live run holds the journal (an exclusive advisory lock taken by create()).
bool journalInUse(const std::string& path);

// Removes the journal at `path` once its record is safe, but only the file of a Journal of this
// process that is still alive (the same file: device and inode, not just the name; call it
// before the Journal is destroyed). A file the run did not create (a journal of an earlier,
// killed run; any file given as --journal) is never removed: false then, and the file is left
// as it is. True when the file was removed.
bool removeOwnJournal(const std::string& path);

}  // namespace jb

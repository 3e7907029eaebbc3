#pragma once
// Reading a record file fast: the record, and the file's bytes as they were (so the Inspector's
// "save a copy" writes them back unchanged). jb::loadRecord and jb::parseRecord are this reader,
// so the CLI (verify, summary, plan, compare) and the Inspector read a record the same way and
// equally fast.
//
// A record's raw samples are three columns of integers, a million rows for a long run, and
// they dominate the file. A general JSON tree takes seconds for a million samples. So the
// samples are read by a small scanner that accepts only the plain form the writer produces
// ({"spec": {"t0_ns": [ints], "t1_ns": [ints], "nj": [ints]}}, plain keys, integers without
// fraction or exponent), and the rest of the file (with `"samples": {}` in their place) goes
// through jb::parseRecordTree. Anything the scanner does not accept, and every error, goes
// through parseRecordTree with the whole text: a record reads the same either way, and every
// message a user sees is the general reader's (line and column, JSON path, "the file is
// empty", "not a record").
#include <jb/base/Interval.h>
#include <jb/base/Result.h>
#include <jb/record/Record.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jb {

struct LoadedFile {
    Result<Record> record = Error{"not loaded"};
    std::string bytes;          // the file as read; empty when it could not be read
    bool fast_samples = false;  // the samples came through the scanner
};

LoadedFile loadRecordFile(const std::string& path);

// The pieces, for tests.
using NamedSamples = std::vector<std::pair<std::string, std::vector<Interval>>>;
// Offset of the value of a top-level key of a JSON object; none where the text is not an
// object the scanner can walk or the key is absent.
std::optional<std::size_t> findTopLevelValue(std::string_view text, std::string_view key);
struct ScannedSamples {
    NamedSamples samples;
    std::size_t end = 0;  // offset just past the samples object
};
// The samples object starting at `pos`; none where it is not in the plain form.
std::optional<ScannedSamples> scanSamples(std::string_view text, std::size_t pos);
// The whole record through the scanner; none where any part needs jb::parseRecordTree's judgement.
std::optional<Record> parseRecordFast(std::string_view text);

}  // namespace jb

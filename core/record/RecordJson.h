#pragma once
// The record as JSON, both ways: the schema (the text itself, dump and parse: record/JsonText.h).
//
// Writing: every key of the reference harness, in its order and with its types (integers as
// integers, floats as floats even where they hold a whole number), then JouleBench's
// additions, which are only ever new keys (docs/RECORD.md lists them all).
// Reading: reference records and JouleBench records alike. Every error says what is wrong and
// where: broken JSON by line and column, a wrong field by its JSON path and the expected type,
// e.g. `$.rounds[2].rapl.busy.mean_w: expected a number, found "abc"` (the reader kit every
// JSON file goes through: base/JsonReader.h).
#include <jb/base/JsonReader.h>
#include <jb/base/Result.h>
#include <jb/record/JsonText.h>
#include <jb/record/Record.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace jb {

// ---- Record -> JSON

ojson toJson(const Record& r);
ojson roundToJson(const Round& r);
ojson counterRoundToJson(const CounterRound& c);
ojson bracketToJson(const std::optional<Bracket>& b);  // null where absent
ojson samplerToJson(const SamplerFigures& s);
ojson summaryToJson(const CounterSummary& s);
// Phases: a round's marks [{"name", "t0_ns", "t1_ns"}], one counter's phase figures, and the
// record's phase_summary ({"spread": "mad", "<spec>": [per phase]}); docs/RECORD.md.
ojson marksToJson(const std::vector<MarkSpan>& marks);
ojson phaseFiguresToJson(const std::vector<PhaseFigure>& f);
ojson phaseSummaryToJson(const Record& r);
// {"t0_ns": [...], "t1_ns": [...], "nj": [...]}: columns, as the sample store keeps them.
ojson intervalsToJson(std::span<const Interval> iv);

// dumpJson(toJson(r)) and a trailing newline, as the reference prints it.
std::string dumpRecord(const Record& r);

// ---- JSON -> Record

Result<Record> recordFromJson(const ojson& j);
// A record from its text. Where the raw samples are in the plain form the writer produces they
// are read by the samples scanner (record/RecordLoad.h: a million samples in a fraction of a
// second); everything else, and every error, goes through parseRecordTree.
Result<Record> parseRecord(std::string_view text);
// The general reader: the whole text through a JSON tree. The scanner agrees with it.
Result<Record> parseRecordTree(std::string_view text);
// As parseRecord, from a file; every message starts with the path (loadRecordFile also keeps
// the file's bytes).
Result<Record> loadRecord(const std::string& path);

// Pieces, for the journal (path is the JSON path to prefix errors with, "$" for the root).
// `counters` is the record's "counters" list: a round key named there is that counter's figures.
Result<Round> roundFromJson(const ojson& j, const std::vector<std::string>& counters,
                            const std::string& path = "$");
Result<std::vector<Interval>> intervalsFromJson(const ojson& j, const std::string& path = "$");

// The checks every stored run of intervals must pass: t1 after t0 in each, each starting no
// earlier than the one before it ended (sorted, non-overlapping).
Status checkIntervals(std::span<const Interval> iv, const std::string& path);

}  // namespace jb

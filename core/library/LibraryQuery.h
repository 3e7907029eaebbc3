#pragma once
// Which records of the library a command means: `library list`'s filters and `library check
// --against`'s QUERY are the same terms, `key=value`:
//   label=L  meta.KEY=V  host=H  counter=C  commit=PREFIX  branch=B  status=S
//   since=DATE  until=DATE   (DATE: 2026-12-01 or 2026-12-01T07:39:01Z; until a date is the
//                             whole of that day, UTC)
// Every term must hold (AND). A bad term is an error naming it.
#include <jb/base/Result.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jb {

struct LibraryQuery {
    std::optional<std::string> label, host, counter, commit, branch, status;
    std::vector<std::pair<std::string, std::string>> meta;  // key, value (metaValueText)
    std::optional<std::int64_t> since_ms, until_ms;         // inclusive, Unix ms
    bool include_missing = false;                           // rows whose file is gone
    std::vector<std::string> exclude_sha256;                // e.g. the record being checked
    bool empty() const;
};

// Adds one term ("label=gate", "meta.q=3") to q; the error names the term.
Status addQueryTerm(LibraryQuery& q, const std::string& term);
// Terms separated by spaces ("label=gate meta.q=3"), each as addQueryTerm; a value with spaces
// is quoted (label="nightly run" or label='nightly run').
Result<LibraryQuery> parseQuery(const std::string& terms);

// "2026-12-01" or an ISO 8601 date-time (Z or an offset; none: UTC) as Unix ms. end_of_day:
// a bare date means its last millisecond (for `until`).
Result<std::int64_t> parseQueryTime(const std::string& text, bool end_of_day);

}  // namespace jb

#include <jb/library/LibraryQuery.h>

#include <QDateTime>
#include <QString>
#include <QTimeZone>

#include <cctype>

namespace jb {

bool LibraryQuery::empty() const
{
    return !label && !host && !counter && !commit && !branch && !status && meta.empty() && !since_ms && !until_ms;
}

Result<std::int64_t> parseQueryTime(const std::string& text, bool end_of_day)
{
    const QString s = QString::fromStdString(text);
    const QDate d = QDate::fromString(s, Qt::ISODate);
    if (d.isValid() && s.size() == 10) {
        const QDateTime start(d, QTime(0, 0), QTimeZone::utc());
        return start.toMSecsSinceEpoch() + (end_of_day ? 86'400'000 - 1 : 0);
    }
    QDateTime t = QDateTime::fromString(s, Qt::ISODateWithMs);
    if (!t.isValid())
        return Error{"'" + text + "' is not a date (2026-12-01) or an ISO 8601 time (2026-12-01T07:39:01Z)"};
    if (t.timeSpec() == Qt::LocalTime)
        t.setTimeZone(QTimeZone::utc());
    return t.toMSecsSinceEpoch();
}

Status addQueryTerm(LibraryQuery& q, const std::string& term)
{
    const auto eq = term.find('=');
    if (eq == std::string::npos || eq == 0)
        return Error{"query term '" + term +
                     "' is not key=value (keys: label, meta.KEY, host, counter, commit, branch, status, since, "
                     "until)"};
    const std::string key = term.substr(0, eq), value = term.substr(eq + 1);
    if (value.empty())
        return Error{"query term '" + term + "' has no value"};
    auto set = [&](std::optional<std::string>& into) -> Status {
        into = value;
        return Ok{};
    };
    if (key == "label")
        return set(q.label);
    if (key == "host")
        return set(q.host);
    if (key == "counter")
        return set(q.counter);
    if (key == "branch")
        return set(q.branch);
    if (key == "status")
        return set(q.status);
    if (key == "commit") {
        for (char c : value)
            if (!std::isxdigit(static_cast<unsigned char>(c)))
                return Error{"query term '" + term + "': a commit is hexadecimal (a prefix of the git hash)"};
        return set(q.commit);
    }
    if (key.rfind("meta.", 0) == 0 && key.size() > 5) {
        q.meta.emplace_back(key.substr(5), value);
        return Ok{};
    }
    if (key == "since" || key == "until") {
        auto t = parseQueryTime(value, key == "until");
        if (!t)
            return Error{"query term '" + term + "': " + t.error()};
        (key == "since" ? q.since_ms : q.until_ms) = *t;
        return Ok{};
    }
    return Error{"query term '" + term + "': unknown key '" + key +
                 "' (keys: label, meta.KEY, host, counter, commit, branch, status, since, until)"};
}

Result<LibraryQuery> parseQuery(const std::string& terms)
{
    LibraryQuery q;
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n'; };
    std::size_t at = 0;
    while (at < terms.size()) {
        if (space(terms[at])) {
            ++at;
            continue;
        }
        // One term: up to the next space outside quotes; a quoted part ("..." or '...') keeps
        // its spaces and loses its quotes, so label="nightly run" is one term.
        std::string term;
        const std::size_t start = at;
        while (at < terms.size() && !space(terms[at])) {
            const char c = terms[at];
            if (c != '"' && c != '\'') {
                term += c;
                ++at;
                continue;
            }
            const auto close = terms.find(c, at + 1);
            if (close == std::string::npos)
                return Error{"query term '" + terms.substr(start) + "': the quote " + std::string(1, c) +
                             " is not closed"};
            term += terms.substr(at + 1, close - at - 1);
            at = close + 1;
        }
        if (Status st = addQueryTerm(q, term); !st)
            return Error{st.error()};
    }
    return q;
}

}  // namespace jb

#include <jb/record/SummaryTable.h>

#include <algorithm>
#include <cstdio>

namespace jb {

namespace {

std::string jString(const std::optional<double>& v)
{
    if (!v)
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", *v);
    return buf;
}

std::string outliers(const std::vector<int>& rounds)
{
    if (rounds.empty())
        return "-";
    std::string s;
    for (std::size_t i = 0; i < rounds.size(); ++i)
        s += (i ? "," : "") + std::to_string(rounds[i] + 1);
    return s;
}

std::vector<std::string> alignRows(const std::vector<std::vector<std::string>>& rows)
{
    std::vector<std::size_t> width;
    for (const auto& row : rows) {
        width.resize(std::max(width.size(), row.size()), 0);
        for (std::size_t c = 0; c < row.size(); ++c)
            width[c] = std::max(width[c], row[c].size());
    }
    std::vector<std::string> out;
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            line += row[c];
            if (c + 1 < row.size())
                line.append(width[c] - row[c].size() + 2, ' ');
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out.push_back(std::move(line));
    }
    return out;
}

}  // namespace

namespace {
// Why a phase was too short on spec, in the counter's words (its first too-short round).
std::string firstTooShortReason(const Record& r, const std::string& spec, const std::string& name)
{
    for (const Round& rd : r.rounds)
        for (const auto& [k, figures] : rd.phase_energy)
            if (k == spec)
                for (const PhaseFigure& f : figures)
                    if (f.name == name && f.too_short)
                        return *f.too_short;
    return {};
}
}  // namespace

std::vector<PhaseRow> phaseRows(const Record& r, const std::string& spec)
{
    std::vector<PhaseRow> out;
    for (const PhaseSummary& s : phaseSummaryOf(r, spec)) {
        PhaseRow row;
        row.name = s.name;
        row.marginal_j = jString(s.median_marginal_j);
        row.spread_j = jString(s.mad_marginal_j);
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.4g ms", s.median_span_s * 1e3);
        row.span = buf;
        if (s.share) {
            std::snprintf(buf, sizeof buf, "%.0f%%", *s.share * 100.0);
            row.share = buf;
        } else {
            row.share = "-";
        }
        row.all_too_short = s.rounds > 0 && s.too_short_rounds == s.rounds;
        if (row.all_too_short)
            row.too_short = "too short for the counter (every round)";
        else if (s.too_short_rounds > 0)
            row.too_short = "too short in " + std::to_string(s.too_short_rounds) + " of " + std::to_string(s.rounds) +
                " rounds";
        if (s.too_short_rounds > 0)
            row.too_short_why = firstTooShortReason(r, spec, s.name);
        out.push_back(std::move(row));
    }
    return out;
}

std::string phaseTable(const Record& r, const std::string& spec)
{
    const std::vector<PhaseRow> rows = phaseRows(r, spec);
    if (rows.empty())
        return {};
    std::vector<std::vector<std::string>> cells;
    cells.push_back({"phase", "marginal J", "spread (MAD)", "span", "share", ""});
    for (const PhaseRow& p : rows)
        cells.push_back({p.name, p.marginal_j, p.spread_j, p.span, p.share, p.too_short});
    std::string out = "phases on " + spec + " (median over rounds; spread: MAD; share of the round's marginal J):\n";
    for (const std::string& line : alignRows(cells))
        out += "  " + line + "\n";
    for (const PhaseRow& p : rows)
        if (!p.too_short.empty() && !p.too_short_why.empty())
            out += "  " + p.name + ": " + p.too_short_why + "\n";
    return out;
}

std::string summaryTable(const std::vector<std::pair<std::string, Record>>& records)
{
    using Row = std::vector<std::string>;
    std::vector<Row> rows;
    rows.push_back({"file", "label", "counter", "status", "rounds", "clean", "rel-only", "noisy", "unusable",
                    "none", "J/decode median [min, max]", "outlier rounds"});
    for (const auto& [file, r] : records) {
        // The reference writes its record only once the run is over, hence "complete".
        const std::string status = r.status ? *r.status : r.tool ? "-" : "complete";
        const std::string label = r.label ? *r.label : "-";
        const std::vector<std::string> specs = r.wholeDeviceCounters();
        if (specs.empty()) {
            rows.push_back({file, label, "-", status, std::to_string(r.rounds.size()), "-", "-", "-", "-",
                            "-", "-", "-"});
            continue;
        }
        for (const std::string& spec : specs) {
            const CounterSummary s = summaryOf(r, spec);
            std::string j = jString(s.median_j_per_decode);
            if (s.median_j_per_decode)
                j += " [" + jString(s.min_j_per_decode) + ", " + jString(s.max_j_per_decode) + "]";
            rows.push_back({file, label, spec, status, std::to_string(r.rounds.size()),
                            std::to_string(s.clean), std::to_string(s.relative_only), std::to_string(s.noisy),
                            std::to_string(s.unusable), std::to_string(s.no_verdict), j,
                            outliers(s.outlier_rounds)});
        }
    }
    std::vector<std::size_t> width(rows[0].size(), 0);
    for (const Row& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c)
            width[c] = std::max(width[c], row[c].size());
    std::string out;
    for (const Row& row : rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            line += row[c];
            if (c + 1 < row.size())
                line.append(width[c] - row[c].size() + 2, ' ');
        }
        out += line + "\n";
    }
    return out;
}

}  // namespace jb

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

}  // namespace

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

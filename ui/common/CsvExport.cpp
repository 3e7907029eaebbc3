#include "common/CsvExport.h"
#include <jb/record/Csv.h>

#include <cstdio>

namespace jb {

namespace {

std::string num(double v)
{
    return csvNumber(v);
}

std::string cell(const std::string& s)
{
    return csvCell(s);
}

void addBracket(std::vector<std::string>& row, const std::optional<Bracket>& b)
{
    row.push_back(b ? num(b->mean_w) : "");
    row.push_back(b ? num(b->sd_w) : "");
}

std::string join(const std::vector<std::string>& row)
{
    return csvRow(row);
}

}  // namespace

std::string roundsCsv(const Record& r)
{
    const std::vector<std::string> specs = r.wholeDeviceCounters();
    std::vector<std::string> head{"round", "decodes", "child_wall_ns", "window_ns", "child_note"};
    for (const std::string& s : specs)
        for (const char* k :
             {"idle_before_w", "idle_before_sd_w", "idle_after_w", "idle_after_sd_w", "busy_w", "busy_sd_w",
              "window_nj", "covered_ns", "marginal_nj", "j_per_decode", "ratio", "verdict"})
            head.push_back(cell(s + "." + k));
    std::string out = join(head);
    for (std::size_t i = 0; i < r.rounds.size(); ++i) {
        const Round& round = r.rounds[i];
        std::vector<std::string> row{std::to_string(i + 1), std::to_string(round.decodes),
                                     std::to_string(round.child_wall_ns), std::to_string(round.window_ns),
                                     cell(round.child_note.value_or(""))};
        for (const std::string& s : specs) {
            const CounterRound* c = round.counter(s);
            if (!c) {
                row.insert(row.end(), 12, "");
                continue;
            }
            addBracket(row, c->idle_before);
            addBracket(row, c->idle_after);
            addBracket(row, c->busy);
            row.push_back(std::to_string(c->window_nj));
            row.push_back(std::to_string(c->covered_ns));
            row.push_back(c->has_marginal ? num(c->marginal_nj) : "");
            row.push_back(c->has_marginal && round.decodes > 0
                              ? num(c->marginal_nj / 1e9 / double(round.decodes))
                              : "");
            row.push_back(c->ratio ? num(*c->ratio) : "");
            row.push_back(c->verdict ? verdictName(*c->verdict) : "");
        }
        out += join(row);
    }
    return out;
}

std::string samplesCsv(const NamedIntervals& samples)
{
    std::string out = "counter,t0_ns,t1_ns,nj,power_w\n";
    for (const auto& [spec, iv] : samples) {
        const std::string name = cell(spec);
        for (const Interval& s : iv) {
            out += name;
            out += ',' + std::to_string(s.t0_ns) + ',' + std::to_string(s.t1_ns) + ',' +
                std::to_string(s.nj) + ',' + num(s.power_w()) + '\n';
        }
    }
    return out;
}

}  // namespace jb

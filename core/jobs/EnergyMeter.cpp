#include <jb/jobs/EnergyMeter.h>

#include <jb/base/Clock.h>
#include <jb/sampling/Sampler.h>
#include <jb/stats/Statistics.h>

namespace jb {

namespace {

std::optional<EnergyBracket> energyBracket(const std::optional<Bracket>& b)
{
    if (!b)
        return std::nullopt;
    return EnergyBracket{b->intervals, b->mean_w, b->sd_w, double(b->span_ns) / 1e9};
}

}  // namespace

EnergyMeter::EnergyMeter(std::vector<std::string> specs, CounterOptions options, std::int64_t period_ns)
    : options_(std::move(options)), period_ns_(period_ns)
{
    for (std::string& s : specs)
        entries_.push_back({std::move(s), nullptr, {}});
}

EnergyMeter::~EnergyMeter()
{
    stop();
}

void EnergyMeter::start()
{
    for (Entry& e : entries_) {
        auto counter = openCounter(e.spec, options_);
        if (!counter) {
            e.problem = counter.error();
            continue;
        }
        e.sampler = std::make_unique<Sampler>(std::move(counter.value()), period_ns_);
        if (auto st = e.sampler->start(); !st) {
            e.problem = st.error();
            e.sampler.reset();
        }
    }
}

void EnergyMeter::stop()
{
    for (Entry& e : entries_)
        if (e.sampler)
            e.sampler->stop();
}

JobEnergy EnergyMeter::report(std::int64_t t0, std::int64_t t1, std::int64_t t2, std::int64_t t3,
                              double idle_seconds) const
{
    JobEnergy out;
    out.idle_seconds = idle_seconds;
    out.sampling_period_seconds = double(period_ns_) / 1e9;
    for (const Entry& e : entries_) {
        CounterEnergy c;
        c.spec = e.spec;
        c.available = e.sampler != nullptr;
        if (!e.sampler) {
            c.reason = e.problem;
            out.counters[e.spec] = c;
            continue;
        }
        const std::vector<Interval> all = e.sampler->store()->all();
        const std::span<const Interval> span(all);
        auto slice = [&](IndexRange r) { return span.subspan(r.begin, r.size()); };
        RoundSlices s;
        s.busy = slice(between(span, t1, t2));
        s.covering = slice(covering(span, t1, t2));
        s.idle_before = slice(between(span, t0, t1));
        s.idle_after = slice(between(span, t2, t3));
        const CounterRound r = counterRound(s);
        c.info = nlohmann::json::parse(e.sampler->counterInfo().dump());  // sorted as the manifest
        c.total_j = double(r.window_nj) / 1e9;
        c.covered_seconds = double(r.covered_ns) / 1e9;
        c.busy = energyBracket(r.busy);
        c.idle_before = energyBracket(r.idle_before);
        c.idle_after = energyBracket(r.idle_after);
        if (r.has_marginal)
            c.marginal_j = r.marginal_nj / 1e9;
        c.ratio = r.ratio;
        c.verdict = r.verdict;
        if (!r.has_marginal)
            c.marginal_note = idle_seconds > 0 ? "fewer than two intervals in the job or an idle bracket"
                                               : "no idle brackets (energy.idle_seconds is 0)";
        const SamplerFigures f = e.sampler->figures();
        c.intervals = f.intervals;
        c.read_errors = f.read_errors;
        c.last_error = f.last_error;
        out.counters[e.spec] = std::move(c);
    }
    return out;
}

std::optional<double> EnergyMeter::recentPowerW(const std::string& spec, std::int64_t window_ns) const
{
    for (const Entry& e : entries_) {
        if (e.spec != spec || !e.sampler)
            continue;
        auto store = e.sampler->store();
        const std::size_t n = store->size();
        if (n == 0)
            return std::nullopt;
        const std::int64_t now = monotonicNs();
        std::int64_t nj = 0, span = 0;
        for (const Interval& iv : store->slice(n > 64 ? n - 64 : 0, n))
            if (iv.t1_ns >= now - window_ns) {
                nj += iv.nj;
                span += iv.span_ns();
            }
        if (span <= 0)
            return std::nullopt;
        return double(nj) / double(span);
    }
    return std::nullopt;
}

}  // namespace jb

#pragma once
// A bench in simulated time for session tests: one clock (jb::SimulatedTime), the device's true
// power (an idle draw plus each busy span a child put on it), children that answer the protocol
// on that clock, and counters that show the true energy as a real counter's mode does
// (tests/clients/CounterModes.h: exact, sampled, boxcar, late; the same model the fake zone and
// the fake NVML use). Nothing sleeps and nothing is a process: a run of minutes of simulated time
// takes milliseconds, so these tests run in parallel with anything.
//
//   SimBench bench;                       // 20 W idle
//   bench.counter("rapl", {Mode::Boxcar, 0.1, 1.0});
//   bench.child.busy_w = 30;              // each decode draws 30 W more for job_ns
//   jb::Session s(plan, bench.env());
//   const jb::Record r = bench.run(s);
//
// What it leaves out of a real bench, on purpose: scheduling noise (every read is on its
// deadline), a child's start-up jitter, the file system. The real-time tests (tst_session,
// tst_faults) keep one of each path against real processes and the fake zone.
#include "../clients/CounterModes.h"

#include <jb/base/TimeSource.h>
#include <jb/child/ChildLink.h>
#include <jb/counters/EnergyCounter.h>
#include <jb/record/Record.h>
#include <jb/session/Session.h>

#include <QCoreApplication>
#include <QSignalSpy>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace simbench {

constexpr std::int64_t kMs = 1'000'000;

// The device's true power over time: idle_w, plus w over each busy span.
struct Load {
    double idle_w = 20.0;
    struct Span {
        std::int64_t t0, t1;
        double w;
    };
    std::vector<Span> spans;

    // The true energy in J from 0 to t_ns.
    double trueJ(std::int64_t t_ns) const
    {
        double j = idle_w * double(t_ns) / 1e9;
        for (const Span& s : spans)
            if (t_ns > s.t0)
                j += s.w * double(std::min(t_ns, s.t1) - s.t0) / 1e9;
        return j;
    }
};

// One child's behaviour: `ready <jobs>` after ready_ns; on `go k`, k passes of jobs x job_ns
// drawing busy_w more, or where phases are given, k passes of the phases in order (each NAME
// for len_ns drawing its own watts, with `mark NAME` at each start);
// `done <jobs x k> <wall> truth_nj=<W x busy ns>` (phase_truth_nj=NAME:NJ,... with phases), as
// tests/clients/fakechild answers.
struct ChildSpec {
    std::int64_t jobs = 2;
    std::int64_t job_ns = 100 * kMs;
    double busy_w = 15.0;
    std::int64_t ready_ns = 5 * kMs;
    struct Phase {
        std::string name;
        std::int64_t len_ns;
        double w;
    };
    std::vector<Phase> phases;
    // Misbehaviour in round `fault_round` (1-based; 0: none): Hang never answers; Exit exits
    // with code 3 halfway through the round. NoReady never prints its ready line.
    enum class Fault { None, Hang, Exit, NoReady } fault = Fault::None;
    int fault_round = 0;
};

class Child final : public jb::ChildLink {
public:
    Child(jb::SimulatedTime& time, Load& load, ChildSpec spec, std::int64_t pid)
        : time_(time), load_(load), spec_(std::move(spec)), pid_(pid)
    {
    }
    ~Child() override { *alive_ = false; }

    jb::Status checkLaunchable() const override { return jb::Ok{}; }
    void setForwardStderr(bool) override {}
    void start() override
    {
        running_ = true;
        if (spec_.fault == ChildSpec::Fault::NoReady)
            return;
        later(spec_.ready_ns, [this] { emit ready(jb::ReadyLine{spec_.jobs}); });
    }
    void go(int k) override
    {
        ++round_;
        const std::int64_t t0 = time_.nowNs();
        std::int64_t pass = spec_.jobs * spec_.job_ns;
        if (!spec_.phases.empty()) {
            pass = 0;
            for (const ChildSpec::Phase& ph : spec_.phases)
                pass += ph.len_ns;
        }
        const std::int64_t busy = pass * k;
        if (spec_.fault_round == round_ && spec_.fault == ChildSpec::Fault::Hang) {
            load_.spans.push_back({t0, t0 + 3600'000 * kMs, spec_.busy_w});  // busy until ended
            hung_span_ = load_.spans.size() - 1;
            return;
        }
        if (spec_.fault_round == round_ && spec_.fault == ChildSpec::Fault::Exit) {
            later(busy / 2, [this] {
                running_ = false;
                emit finished(3, false);
            });
            return;
        }
        std::string note;
        if (spec_.phases.empty()) {
            load_.spans.push_back({t0, t0 + busy, spec_.busy_w});
            note = "truth_nj=" + std::to_string(std::llround(spec_.busy_w * double(busy)));
        } else {
            std::vector<double> truth(spec_.phases.size(), 0.0);
            std::int64_t at = t0;
            for (int p = 0; p < k; ++p) {
                for (std::size_t i = 0; i < spec_.phases.size(); ++i) {
                    const ChildSpec::Phase& ph = spec_.phases[i];
                    const std::int64_t len = ph.len_ns;
                    load_.spans.push_back({at, at + len, ph.w});
                    truth[i] += ph.w * double(len);
                    const QString name = QString::fromStdString(ph.name);
                    const std::int64_t mark_t = at;
                    later(at - t0, [this, name, mark_t] { emit marked(name, qint64(mark_t)); });
                    at += len;
                }
            }
            note = "phase_truth_nj=";
            for (std::size_t i = 0; i < truth.size(); ++i)
                note += (i ? "," : "") + spec_.phases[i].name + ":" + std::to_string(std::llround(truth[i]));
        }
        const std::int64_t decodes = spec_.jobs * k;
        later(busy, [this, decodes, busy, note] { emit done(jb::DoneLine{decodes, busy, note}); });
    }
    void sendExit() override
    {
        later(1 * kMs, [this] {
            running_ = false;
            emit finished(0, false);
        });
    }
    void terminate() override
    {
        if (!running_)
            return;
        running_ = false;
        if (hung_span_)  // the work stops with the process
            load_.spans[*hung_span_].t1 = std::min(load_.spans[*hung_span_].t1, time_.nowNs());
        later(1 * kMs, [this] { emit finished(-1, true); });
    }
    std::int64_t pid() const override { return pid_; }
    bool running() const override { return running_; }

private:
    template <typename F>
    void later(std::int64_t ns, F fn)
    {
        time_.post(ns, [alive = alive_, fn = std::move(fn)] {
            if (*alive)
                fn();
        });
    }

    jb::SimulatedTime& time_;
    Load& load_;
    ChildSpec spec_;
    std::int64_t pid_;
    int round_ = 0;
    bool running_ = false;
    std::optional<std::size_t> hung_span_;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

// A counter showing the load through a real counter's mode. The true energy is fed to the
// mode's model every millisecond of simulated time, so busy edges are sharp to 1 ms. The mode's
// update clock starts clock_phase_ns before the counter is opened.
class Counter final : public jb::EnergyCounter {
public:
    Counter(std::string spec, jb::SimulatedTime& time, const Load& load, countermode::Params mode,
            std::int64_t clock_phase_ns = 0)
        : spec_(std::move(spec)), time_(time), load_(load), model_(mode), fed_ns_(time.nowNs() - clock_phase_ns - kMs)
    {
    }
    std::string spec() const override { return spec_; }
    jb::Result<std::int64_t> readNj() override
    {
        const std::int64_t now = time_.nowNs();
        for (std::int64_t t = fed_ns_ + kMs; t <= now; t += kMs) {
            model_.addTrue(double(t) / 1e9, load_.trueJ(t));
            fed_ns_ = t;
        }
        return std::int64_t(std::llround(model_.energyJ() * 1e9));
    }
    nlohmann::ordered_json info() const override
    {
        static const char* names[] = {"exact", "sampled", "boxcar", "late"};
        return {{"kind", "simbench"}, {"mode", names[int(model_.params().mode)]}, {"unit", "nJ"}};
    }

private:
    std::string spec_;
    jb::SimulatedTime& time_;
    const Load& load_;
    countermode::Model model_;
    std::int64_t fed_ns_;
};

class SimBench {
public:
    jb::SimulatedTime time;
    Load load;
    ChildSpec child;                      // every child's spec, unless by_argv0 names one
    std::map<std::string, ChildSpec> by_argv0;  // a child whose argv[0] is named here
    std::map<std::string, countermode::Params> modes;  // spec -> mode; unnamed specs: exact
    std::int64_t clock_phase_ns = 0;  // every counter's update clock, against the session's start

    void counter(const std::string& spec, countermode::Params p) { modes[spec] = p; }

    jb::SessionEnv env()
    {
        jb::SessionEnv e;
        e.time = &time;
        e.children = [this](const std::vector<std::string>& argv, const std::string&) -> std::unique_ptr<jb::ChildLink> {
            const auto named = argv.empty() ? by_argv0.end() : by_argv0.find(argv[0]);
            return std::make_unique<Child>(time, load, named == by_argv0.end() ? child : named->second,
                                           next_pid_++);
        };
        e.counters = [this](const std::string& spec, const jb::CounterOptions&)
            -> jb::Result<std::unique_ptr<jb::EnergyCounter>> {
            const auto m = modes.find(spec);
            return std::unique_ptr<jb::EnergyCounter>(
                std::make_unique<Counter>(spec, time, load, m == modes.end() ? countermode::Params{} : m->second,
                                          clock_phase_ns));
        };
        return e;
    }

    // Advances simulated time until done() holds, limit_s of it at most; queued calls (a
    // QueuedConnection start, the sampler's error mailbox) are delivered as time passes.
    bool advanceUntil(const std::function<bool()>& done, double limit_s = 600)
    {
        return time.runUntil(
            [&done] {
                QCoreApplication::processEvents();
                return done();
            },
            std::int64_t(limit_s * 1e9));
    }

    // Starts the session and runs it to its finished() record (several children: its
    // finishedSet() records); empty where it did not end within limit_s.
    jb::Record run(jb::Session& s, double limit_s = 600)
    {
        QSignalSpy done(&s, &jb::Session::finished);
        s.start();
        if (!advanceUntil([&] { return !done.isEmpty(); }, limit_s))
            return {};
        return done.takeFirst().at(0).value<jb::Record>();
    }
    std::vector<jb::Record> runSet(jb::Session& s, double limit_s = 600)
    {
        QSignalSpy done(&s, &jb::Session::finishedSet);
        s.start();
        if (!advanceUntil([&] { return !done.isEmpty(); }, limit_s))
            return {};
        return done.takeFirst().at(0).value<std::vector<jb::Record>>();
    }

private:
    std::int64_t next_pid_ = 1000;
};

// A plan for the bench: three rounds of k 1 with 0.5 s brackets, rapl read every 20 ms, samples
// kept; the child's argv names a ChildSpec only through SimBench::by_argv0.
inline jb::Plan plan(const std::string& label)
{
    jb::Plan p;
    p.label = label;
    p.rounds = 3;
    p.k = 1;
    p.idle_s = 0.5;
    p.sample_ms = 20;
    p.counters = {"rapl"};
    p.child = {"simchild"};
    p.ready_timeout_s = 5;
    p.with_samples = true;
    return p;
}

// The truth a done line's note carries (truth_nj=X), in nJ.
inline double noteTruth(const jb::Round& r)
{
    if (!r.child_note)
        return 0;
    return std::stod(r.child_note->substr(r.child_note->find('=') + 1));
}

}  // namespace simbench

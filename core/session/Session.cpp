#include <jb/session/Session.h>

#include <jb/base/Clock.h>
#include <jb/base/Text.h>
#include <jb/base/Version.h>
#include <jb/child/DecoderChild.h>
#include <jb/counters/CounterRegistry.h>
#include <jb/record/Journal.h>
#include <jb/record/RecordJson.h>
#include <jb/sampling/Sampler.h>
#include <jb/stats/CounterResolution.h>
#include <jb/stats/Paired.h>
#include <jb/stats/PhaseEnergy.h>
#include <jb/stats/RoundTimes.h>
#include <jb/stats/SessionChecks.h>

#include <QDateTime>
#include <QLoggingCategory>
#include <QSysInfo>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sys/utsname.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcSession, "joulebench.session", QtWarningMsg)

namespace jb {

namespace {

constexpr std::int64_t kSettlePollNs = 50'000'000;  // the reference's settled rule: two reads 50 ms apart agree
constexpr int kSettleMaxTries = 200;  // then it gives up (10 s), as the reference

std::array<double, 3> loadAverages()
{
    std::array<double, 3> a{0, 0, 0};
    if (getloadavg(a.data(), 3) != 3)
        a = {0, 0, 0};
    return a;
}

Host hostInfo()
{
    Host h;
    utsname u{};
    if (uname(&u) == 0) {
        h.system = u.sysname;  // "Linux", "Darwin": Python's platform.system()
        h.machine = u.machine;  // "x86_64", "arm64": platform.machine()
    }
    h.node_cpu = sysconf(_SC_NPROCESSORS_ONLN);
    // JouleBench's addition (after the reference's keys): which machine, for a shared library.
    h.extra["hostname"] = QSysInfo::machineHostName().toStdString();
    return h;
}

constexpr std::int64_t kMs = 1'000'000;

}  // namespace

Session::Session(Plan plan, QObject* parent)
    : Session(std::move(plan), SessionEnv{}, parent)
{
}

Session::Session(Plan plan, SessionEnv env, QObject* parent)
    : QObject(parent)
    , plan_(std::move(plan))
    , time_(env.time ? *env.time : realTime())
    , make_child_(std::move(env.children))
    , open_counter_(std::move(env.counters))
    , phase_rng_(plan_.phase_seed)
{
    if (!make_child_)
        make_child_ = [](const std::vector<std::string>& argv, const std::string& workdir) -> std::unique_ptr<ChildLink> {
            return std::make_unique<DecoderChild>(argv, workdir);
        };
    if (!open_counter_)
        open_counter_ = [](const std::string& spec, const CounterOptions& opt) { return openCounter(spec, opt); };
    qRegisterMetaType<jb::PhaseEvent>();
    qRegisterMetaType<jb::Round>();
    qRegisterMetaType<jb::Record>();
    qRegisterMetaType<std::vector<jb::Record>>();
    qRegisterMetaType<jb::SetCourse>();
    mirror_timer_ = time_.timer(this, [this] {
        readMirrorProbes();
        mirror_timer_->start(20 * kMs);
    });
    idle_timer_ = time_.timer(this, [this] { endIdle(); });
    settle_timer_ = time_.timer(this, [this] { finishRound(); });
    settle_poll_ = time_.timer(this, [this] { settleStep(); });
    exit_timer_ = time_.timer(this, [this] {
        if (state_ != State::Finished) {
            warnings_.push_back("the child did not exit within 10 s of 'exit'; it was terminated");
            finish(std::nullopt);
        }
    });
    timeout_timer_ = time_.timer(this, [this] {
        const std::string notReady =
            "the child did not print 'ready <jobs>' within " + formatted("%g", plan_.ready_timeout_s) + " s (--ready-timeout)";
        if (state_ == State::Starting && plan_.keep_going && interleaved()) {
            // Every child that is not ready yet is dropped; the ready ones go on.
            for (std::size_t i = 0; i < children_.size() && state_ == State::Starting; ++i)
                if (!ready_[i] && !sched_.dropped(int(i)))
                    onChildTrouble(int(i), notReady);
        } else if (state_ == State::Starting) {
            fail(notReady);
        } else if (state_ == State::Busy) {
            onChildTrouble(active_, "the child did not answer 'go " + std::to_string(plan_.k) + "' within " +
                                        formatted("%g", plan_.round_timeout_s.value_or(0)) + " s (--round-timeout)");
        }
    });
}

std::int64_t Session::maxTailNs() const
{
    std::int64_t m = 0;
    for (std::int64_t t : tails_ns_)
        m = std::max(m, t);
    return m;
}

bool Session::cutOnUpdates(std::size_t si) const
{
    // profiles_ is filled once every sampler is made: before that (a run that failed opening a
    // counter) no counter has a profile and none is cut so.
    return si < profiles_.size() && profiles_[si].update_period_ms > plan_.sample_ms;
}

Session::~Session()
{
    for (auto& s : samplers_)
        s->stop();
}

std::vector<std::pair<std::string, std::shared_ptr<const SampleStore>>> Session::stores() const
{
    std::vector<std::pair<std::string, std::shared_ptr<const SampleStore>>> out;
    for (const auto& s : samplers_)
        out.emplace_back(s->spec(), s->store());
    return out;
}

void Session::start()
{
    if (state_ != State::Idle)
        return;
    state_ = State::Starting;
    started_at_ = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toStdString();
    if (Status v = validatePlan(plan_); !v) {
        finish(v.error());
        return;
    }
    if (interleaved()) {
        for (const PlanChild& c : plan_.children)
            children_.push_back(make_child_(c.argv, c.workdir.empty() ? plan_.workdir : c.workdir));
        sched_ = RunSchedule(plan_.childCount(), plan_.rounds + plan_.warmup, plan_.warmup, plan_.order_seed);
    } else {
        children_.push_back(make_child_(plan_.child, plan_.workdir));
    }
    jobs_.assign(children_.size(), 0);
    ready_.assign(children_.size(), false);
    awaiting_exit_.assign(children_.size(), false);
    for (std::size_t i = 0; i < children_.size(); ++i) {
        if (Status c = children_[i]->checkLaunchable(); !c) {
            finish(interleaved() ? "child " + std::to_string(i + 1) + " (" + plan_.children[i].name + "): " + c.error()
                                 : c.error());
            return;
        }
    }
    // Counters first, as the reference: the samplers run before the child starts.
    for (const std::string& spec : plan_.wholeDeviceCounters()) {
        auto counter = open_counter_(spec, plan_.counter_options);
        if (!counter) {
            finish(counter.error());
            return;
        }
        auto sampler = std::make_unique<Sampler>(std::move(counter.value()),
                                                 std::int64_t(std::llround(plan_.sample_ms * 1e6)), time_);
        const QString qspec = QString::fromStdString(spec);
        sampler->setErrorHandler([this, qspec](const std::string& msg) {
            mail_.post([this, qspec, m = QString::fromStdString(msg)] { onSamplerError(qspec, m); });
        });
        samplers_.push_back(std::move(sampler));
    }
    if (plan_.hasTask()) {
        auto reader = openTaskReader(plan_.counter_options);
        if (!reader) {
            finish(reader.error());
            return;
        }
        task_reader_ = std::move(reader.value());
    }
    {
        // Hardware counters that could be one counter read twice (core/counters' candidates).
        for (auto& [spec, owner] : mirrorCandidates(plan_.wholeDeviceCounters(), plan_.counter_options))
            if (auto copy = open_counter_(spec, plan_.counter_options))
                mirror_probes_.push_back({spec, owner, std::move(copy.value())});
    }
    // Each counter's profile: measured (the plan's) or its kind's default; the phase period
    // spans the slowest counter's updates; an averaging counter's brackets wait its window out.
    for (const auto& s : samplers_) {
        const auto measured = std::find_if(plan_.profiles.begin(), plan_.profiles.end(),
                                           [&](const CounterProfile& p) { return p.spec == s->spec(); });
        CounterProfile prof;
        if (measured != plan_.profiles.end()) {
            prof = *measured;
        } else {
            const nlohmann::ordered_json info = s->counter().info();
            prof = defaultProfile(counterKindOf(s->spec(), info));
            prof.spec = s->spec();
            // A power channel that names its own averaging interval (hwmon's powerN_average_interval).
            const auto avg = info.find("sensor_average_ms");
            if (prof.averages() && avg != info.end() && avg->is_number() && avg->get<double>() > 0)
                prof.averaging_window_ms = avg->get<double>();
        }
        if (prof.update_period_ms > plan_.phase_period_ms) {
            plan_.phase_period_ms = prof.update_period_ms;
            plan_.phase_period_source = s->spec() + "'s update period (" +
                (prof.measured ? "measured" : "its kind's default") + ")";
        }
        tails_ns_.push_back(
            plan_.averaged_brackets && prof.averages()
                ? std::int64_t(std::llround((prof.averaging_window_ms + prof.update_period_ms) * 1e6))
                : 0);
        profiles_.push_back(std::move(prof));
    }
    origin_ns_ = time_.nowNs();
    for (auto& s : samplers_) {
        if (Status st = s->start(); !st) {
            finish(s->spec() + ": " + st.error());
            return;
        }
    }
    QStringList specs;
    for (const auto& s : samplers_)
        specs << QString::fromStdString(s->spec());
    emit started(origin_ns_, specs);

    for (std::size_t i = 0; i < children_.size(); ++i) {
        ChildLink* c = children_[i].get();
        const int index = int(i);
        const auto mine = [this, index] { return !sched_.dropped(index); };  // a dropped child is not heard
        c->setForwardStderr(forward_child_stderr_);
        connect(c, &ChildLink::ready, this, [this, index, mine](ReadyLine r) {
            if (mine())
                onChildReady(index, r);
        });
        connect(c, &ChildLink::done, this, [this, index, mine](const DoneLine& line) {
            if (index == active_ && mine())
                onDone(line);
        });
        connect(c, &ChildLink::marked, this, [this, index, mine](const QString& name, qint64 t_ns) {
            if (index == active_ && mine())
                onMark(name, t_ns);
        });
        connect(c, &ChildLink::failed, this,
                [this, index](const QString& m) { onChildTrouble(index, m.toStdString()); });
        connect(c, &ChildLink::finished, this, [this, index](int code, bool crashed) {
            if (state_ == State::Finished)
                return;
            if (exit_expected_ && awaiting_exit_[std::size_t(index)]) {
                awaiting_exit_[std::size_t(index)] = false;
                if (code != 0 || crashed)
                    warnings_.push_back(who(index, "the child exited with code " + std::to_string(code) +
                                                       (crashed ? " (killed by a signal)" : "") + " after 'exit'"));
                if (--exits_pending_ == 0)
                    finish(std::nullopt);
                return;
            }
            // Exited while nothing was asked of it (during an idle bracket, say).
            onChildTrouble(index, std::string("the child ") +
                                      (crashed ? "was killed by a signal" : "exited with code " + std::to_string(code)) +
                                      " while the run still needed it");
        });
    }
    timeout_timer_->start(secondsToNs(plan_.ready_timeout_s));
    for (auto& c : children_)
        c->start();
}

void Session::onChildReady(int index, const ReadyLine& r)
{
    jobs_[std::size_t(index)] = r.jobs;
    ready_[std::size_t(index)] = true;
    emit childReady(r.jobs);
    ++ready_children_;
    if (ready_children_ < sched_.liveChildren())
        return;
    timeout_timer_->stop();
    allReady();
}

void Session::allReady()
{
    setWorkloadFor(0);
    openJournal();
    if (state_ != State::Finished) {
        beginIdle();
        if (mirror_probes_.size() >= 2) {
            readMirrorProbes();
            mirror_timer_->start(20 * kMs);
        }
    }
}

int Session::childOfRound(int index) const
{
    return sched_.childOf(index);  // one child: no schedule, child 0
}

int Session::roundBlock(int index) const
{
    if (!interleaved())
        return index;
    return sched_.blockOf(index);
}

int Session::plannedRounds() const
{
    return interleaved() ? sched_.size() : plan_.totalRounds();
}

std::string Session::who(int index, const std::string& m) const
{
    // Several children: every message names the child it is about.
    return interleaved() ? "child " + std::to_string(index + 1) + " (" + plan_.children[std::size_t(index)].name + "): " + m
                         : m;
}

void Session::setWorkloadFor(int round)
{
    const std::int64_t pid = children_[std::size_t(childOfRound(round))]->pid();
    for (auto& s : samplers_)
        s->counter().setWorkloadPid(pid);
}

int Session::roundChild(int index) const
{
    if (index < 0 || index >= int(round_child_.size()))
        return 0;
    return round_child_[std::size_t(index)];
}

bool Session::isWarmupRound(int index) const
{
    return sched_.isWarmup(index);
}

qint64 Session::childPid() const
{
    return child() ? child()->pid() : 0;
}

void Session::setForwardChildStderr(bool forward)
{
    forward_child_stderr_ = forward;
}

void Session::stop()
{
    abort(QStringLiteral("stopped by the user"));
}

void Session::abort(const QString& reason)
{
    if (state_ == State::Finished || state_ == State::Idle)
        return;
    fail(reason.toStdString());
}

void Session::beginIdle()
{
    state_ = State::IdleBracket;
    idle_t0_ = time_.nowNs();
    emit phase({PhaseEvent::IdleStarted, int(rounds_.size()) - (brackets_.empty() ? 1 : 0), idle_t0_});
    // The bracket waits a random part of the phase period more, so the round that follows
    // starts at a random phase of the counters' updates (the same generator draws for every
    // bracket, the last one's included, so a seed gives the same offsets to the same rounds).
    phase_offset_ns_ = 0;
    if (const double period_ms = plan_.phasePeriodMs(); period_ms > 0)
        phase_offset_ns_ = phase_rng_.nextNs(period_ms);
    // An averaging counter's bracket starts once its average has drained: the bracket is that
    // much longer, so what is left of it is still idle_s.
    idle_timer_->start(secondsToNs(plan_.idle_s) + maxTailNs() + phase_offset_ns_);
}

void Session::endIdle()
{
    const std::int64_t t1 = time_.nowNs();
    brackets_.push_back({idle_t0_, t1});
    const bool first = brackets_.size() == 1;
    emit phase({PhaseEvent::IdleEnded, first ? -1 : int(rounds_.size()), t1});
    if (fresh_bracket_) {  // the bracket before the round that follows a lost one
        fresh_bracket_ = false;
        beginRound();
        return;
    }
    if (first) {
        mirror_timer_->stop();
        const auto m = mirroredCounters();
        mirror_probes_.clear();
        if (m) {
            fail(*m);
            return;
        }
        beginRound();
        return;
    }
    // Let the samplers close the intervals that end the bracket (the reference's
    // sleep of two sample periods), then compute the round.
    state_ = State::Settling;
    settle_timer_->start(samplers_.empty() ? 0 : secondsToNs(2 * plan_.periodS()));
}

void Session::beginRound()
{
    current_ = Round{};
    round_open_ = false;
    if (plan_.phasePeriodMs() > 0)
        current_.extra["phase_offset_ns"] = phase_offset_ns_;
    if (interleaved())
        active_ = childOfRound(int(rounds_.size()));
    current_.load_avg_before = loadAverages();
    if (task_reader_) {
        readTaskSettled([this](Result<TaskSample> s) {
            if (!s) {
                fail("task counter before the round: " + s.error());
                return;
            }
            task_before_ = s.value();
            afterTaskBefore();
        });
        return;
    }
    afterTaskBefore();
}

void Session::afterTaskBefore()
{
    if (plan_.hasGpuTime()) {
        auto g = readGpuTimes(plan_.counter_options.ioreg_program);
        if (!g) {
            fail("GPU time (ioreg) before the round: " + g.error());
            return;
        }
        gpu_before_ = g.value();
    }
    state_ = State::Busy;
    open_mark_.reset();
    busy_t0_ = time_.nowNs();
    emit phase({PhaseEvent::BusyStarted, int(rounds_.size()), busy_t0_});
    if (plan_.round_timeout_s)
        timeout_timer_->start(secondsToNs(*plan_.round_timeout_s));
    child()->go(plan_.k);
}

void Session::onDone(const DoneLine& line)
{
    if (state_ != State::Busy)
        return;
    busy_t1_ = time_.nowNs();
    timeout_timer_->stop();
    if (open_mark_) {  // `done` ends the open phase
        open_mark_->t1_ns = busy_t1_;
        current_.marks.push_back(*open_mark_);
        open_mark_.reset();
    }
    emit phase({PhaseEvent::BusyEnded, int(rounds_.size()), busy_t1_});
    current_.decodes = line.decodes;
    current_.child_wall_ns = line.wall_ns;
    current_.window_ns = busy_t1_ - busy_t0_;
    current_.child_note = line.note;
    current_.window = std::array<std::int64_t, 2>{busy_t0_, busy_t1_};
    state_ = State::Settling;
    round_open_ = true;
    if (task_reader_) {
        readTaskSettled([this](Result<TaskSample> s) {
            if (!s) {
                fail("task counter after the round: " + s.error());
                return;
            }
            current_.task = taskDelta(*task_before_, s.value());
            afterTaskAfter();
        });
        return;
    }
    afterTaskAfter();
}

void Session::afterTaskAfter()
{
    if (gpu_before_) {
        auto after = readGpuTimes(plan_.counter_options.ioreg_program);
        if (!after) {
            fail("GPU time (ioreg) after the round: " + after.error());
            return;
        }
        GpuTime g;
        const std::int64_t me = child()->pid();
        std::map<std::int64_t, std::int64_t> dt;
        for (const auto& [pid, t] : *gpu_before_)
            dt[pid] -= t;
        for (const auto& [pid, t] : after.value())
            dt[pid] += t;
        for (const auto& [pid, d] : dt)
            if (d > 0)
                g.all_clients_ns += d;
        g.child_ns = dt.count(me) ? dt[me] : 0;
        if (g.all_clients_ns)
            g.share = double(g.child_ns) / double(g.all_clients_ns);
        for (const auto& [pid, _] : *gpu_before_)
            if (!after->count(pid))
                g.vanished.push_back(pid);
        current_.gpu_time = g;
        gpu_before_.reset();
    }
    current_.load_avg_after = loadAverages();
    // The counters that follow the workload's CPU (sim) switch to the next round's child now,
    // at the start of the idle bracket, so their first read of it falls in the bracket.
    if (interleaved() && int(rounds_.size()) + 1 < plannedRounds())
        setWorkloadFor(int(rounds_.size()) + 1);
    beginIdle();
}

void Session::onMark(const QString& name, std::int64_t t_ns)
{
    if (state_ != State::Busy)
        return;
    t_ns = std::max(t_ns, busy_t0_);
    if (open_mark_) {
        open_mark_->t1_ns = std::max(t_ns, open_mark_->t0_ns);
        current_.marks.push_back(*open_mark_);
        open_mark_.reset();
    }
    if (!name.isEmpty())
        open_mark_ = MarkSpan{name.toStdString(), t_ns, t_ns};
    emit phaseMarked(int(rounds_.size()), name, qint64(t_ns));
}

void Session::addPhaseEnergy(Record& r) const
{
    if (!r.hasPhases())
        return;
    std::vector<std::pair<std::string, std::vector<Interval>>> samples;
    for (const auto& s : samplers_)
        samples.emplace_back(s->spec(), s->store()->all());
    // The counters' own facts as the record has them (sampler figures, profiles) set the limits.
    fillPhaseEnergy(r, samples);
}

void Session::finishRound()
{
    const auto& pre = brackets_[brackets_.size() - 2];
    const auto& post = brackets_.back();
    current_.brackets = std::array<std::array<std::int64_t, 2>, 2>{pre, post};
    for (std::size_t si = 0; si < samplers_.size(); ++si) {
        auto& s = samplers_[si];
        const RoundTimes tt = roundTimes(busy_t0_, busy_t1_, pre[0], pre[1], post[0], post[1], tails_ns_[si]);
        CounterRound figures;
        s->store()->read([&](const std::vector<Interval>& all) { figures = roundFigures(all, tt, cutOnUpdates(si)); });
        current_.counters.emplace_back(s->spec(), figures);
        {
            // What the counter's limits make of this round, in words (RoundLine shows it): the
            // record's rule (cadenceOf: the sampler's cadence so far, the profile) on this counter.
            Record seen;
            seen.sample_s = plan_.periodS();
            seen.sampler.emplace_back(s->spec(), s->figures());
            seen.extra["counter_profiles"][s->spec()] = profiles_[si].toJson();
            const CounterCadence cad = cadenceOf(seen, s->spec());
            const std::string lim = roundLimitText(s->spec(), current_.window_ns, cad,
                                                   current_.counters.back().second, profiles_[si],
                                                   double(tails_ns_[si]) / 1e6);
            if (!lim.empty())
                current_.extra["limits"][s->spec()] = lim;
        }
        // Idle drift (stats/SessionChecks: 4 standard errors and 1 % of the idle power); verify
        // recomputes it from the record.
        const CounterRound& cr = current_.counters.back().second;
        if (cr.idle_before && cr.idle_after) {
            const IdleDrift drift = idleDrift(*cr.idle_before, *cr.idle_after);
            setIntegrity(current_, s->spec(), drift);
            if (drift.flagged) {
                const std::string w = idleDriftWarning(int(rounds_.size()) + 1, s->spec(), drift);
                warnings_.push_back(w);
                emit warning(QString::fromStdString(w));
            }
        }
    }
    rounds_.push_back(current_);
    round_child_.push_back(active_);
    round_open_ = false;
    journalRound(current_);
    const int index = int(rounds_.size()) - 1;
    emit roundFinished(index, current_);
    if (int(rounds_.size()) < plannedRounds()) {
        beginRound();
        return;
    }
    endRun();
}

void Session::endRun()
{
    // Done: ask the children to exit and give them a moment, as the reference waits for it.
    state_ = State::Settling;
    exit_expected_ = true;
    exits_pending_ = 0;  // from here: the children still to exit
    for (std::size_t i = 0; i < children_.size(); ++i) {
        if (sched_.dropped(int(i)) || !children_[i]->running())
            continue;
        awaiting_exit_[i] = true;
        ++exits_pending_;
        children_[i]->sendExit();
    }
    if (exits_pending_ == 0) {
        finish(std::nullopt);
        return;
    }
    exit_timer_->start(10'000 * kMs);
}

void Session::readMirrorProbes()
{
    // A row is the probes read back to back. A counter that ticks between two of those reads
    // (a 1 ms RAPL tick, or this thread losing the CPU mid-row on a loaded machine) makes a
    // mirror's advances differ in that row and the next: the first probe is read again after
    // the others, and a row in which it moved is read once more (three tries, then kept).
    std::vector<std::int64_t> row;
    for (int attempt = 0; attempt < 3; ++attempt) {
        row.clear();
        for (MirrorProbe& p : mirror_probes_) {
            auto v = p.counter->readNj();
            if (!v)
                return;  // a failed read: the sampler reports it; this probe row is left out
            row.push_back(*v);
        }
        auto again = mirror_probes_.front().counter->readNj();
        if (!again)
            return;
        if (*again == row.front())
            break;
    }
    mirror_reads_.push_back(std::move(row));
}

std::optional<std::string> Session::mirroredCounters() const
{
    // The rule is stats/SessionChecks' findMirroredPair (one column per probe).
    const std::optional<MirroredPair> m = findMirroredPair(mirror_reads_);
    if (!m)
        return std::nullopt;
    const MirrorProbe& a = mirror_probes_[m->a];
    const MirrorProbe& b = mirror_probes_[m->b];
    return mirroredCountersText(*m, a.spec, a.owner, b.spec, b.owner);
}

void Session::onChildTrouble(int index, const std::string& message)
{
    if (state_ == State::Finished || sched_.dropped(index))
        return;
    if (!plan_.keep_going || !interleaved() || exit_expected_) {
        fail(who(index, message));
        return;
    }
    dropChild(index, who(index, message));
}

void Session::dropChild(int index, const std::string& reason)
{
    const std::size_t c = std::size_t(index);
    const std::size_t pos = rounds_.size();  // the round under way (or the next one)
    // Its rounds to come leave the schedule (a round whose done line came stays).
    const ChildDrop& d = sched_.drop(index, pos, pos + (round_open_ ? 1 : 0), reason);
    const std::string w = "dropped at block " + std::to_string(d.block) + " (--keep-going): " + reason;
    qCInfo(lcSession, "%s", w.c_str());
    warnings_.push_back(w);
    emit warning(QString::fromStdString(w));
    if (children_[c]->running())
        children_[c]->terminate();
    const bool lost = state_ == State::Busy && index == active_;
    if (sched_.allDropped()) {
        fail("every child was dropped (--keep-going); the last: " + reason);
        return;
    }
    switch (state_) {
    case State::Starting: {
        int ready = 0;
        for (std::size_t i = 0; i < children_.size(); ++i)
            ready += !sched_.dropped(int(i)) && ready_[i] ? 1 : 0;
        ready_children_ = ready;
        if (ready == sched_.liveChildren()) {
            timeout_timer_->stop();
            allReady();
        }
        break;
    }
    case State::Busy:
        if (!lost)
            break;  // another child's round goes on
        timeout_timer_->stop();
        gpu_before_.reset();
        busy_t1_ = time_.nowNs();
        emit phase({PhaseEvent::BusyEnded, int(pos), busy_t1_});
        if (pos >= std::size_t(sched_.size())) {
            endRun();
            break;
        }
        // The busy window of the lost round is no idle time: a fresh bracket opens the next round.
        setWorkloadFor(int(pos));
        fresh_bracket_ = true;
        beginIdle();
        break;
    case State::IdleBracket:
    case State::Settling:
        if (round_open_) {
            if (pos + 1 < std::size_t(sched_.size()))
                setWorkloadFor(int(pos + 1));
        } else if (pos < std::size_t(sched_.size())) {
            setWorkloadFor(int(pos));
        } else {
            endRun();
        }
        break;
    case State::Idle:
    case State::Finished:
        break;
    }
}

void Session::onSamplerError(const QString& spec, const QString& message)
{
    const std::string w = spec.toStdString() + ": " + message.toStdString();
    warnings_.push_back(w);
    emit warning(QString::fromStdString(w));
}

void Session::fail(const std::string& reason)
{
    std::string where;
    if (state_ == State::Busy || (state_ == State::Settling && int(rounds_.size()) < plannedRounds()) ||
        (state_ == State::IdleBracket && brackets_.size() > rounds_.size() + 1))
        where = "round " + std::to_string(rounds_.size() + 1) + ": ";
    else if (state_ == State::IdleBracket && !brackets_.empty())
        where = "round " + std::to_string(rounds_.size() + 1) + ": ";
    finish(where + reason);
}

void Session::finish(std::optional<std::string> error)
{
    if (state_ == State::Finished)
        return;
    state_ = State::Finished;
    idle_timer_->stop();
    timeout_timer_->stop();
    settle_timer_->stop();
    mirror_timer_->stop();
    settle_poll_->stop();
    exit_timer_->stop();
    settle_then_ = nullptr;
    for (auto& s : samplers_) {
        s->stop();
        for (const std::string& w : s->integrityWarnings()) {
            warnings_.push_back(w);
            emit warning(QString::fromStdString(w));
        }
    }
    if (error)
        for (auto& c : children_)
            if (c->running())
                c->terminate();
    if (interleaved()) {
        std::vector<Record> records;
        for (int i = 0; i < plan_.childCount(); ++i) {
            Record r = baseRecord(i);
            std::vector<Round> warm;
            for (std::size_t k = 0; k < rounds_.size(); ++k) {
                if (round_child_[k] != i)
                    continue;
                if (isWarmupRound(int(k)))
                    warm.push_back(rounds_[k]);
                else
                    r.rounds.push_back(rounds_[k]);
            }
            setWarmupRounds(r, warm);
            addPhaseEnergy(r);
            if (plan_.with_samples)
                for (const auto& s : samplers_)
                    r.samples.emplace_back(s->spec(), s->store()->all());
            r.status = error ? "aborted" : "complete";
            if (error)
                r.error = *error;
            if (const auto& d = sched_.drops()[std::size_t(i)]) {
                // Dropped (--keep-going): aborted with its own reason, whatever the others did.
                r.status = "aborted";
                r.error = "dropped at block " + std::to_string(d->block) + " (--keep-going): " + d->reason;
                setInterleaved(r, interleavedInfo(i, DroppedChild{d->block, d->reason}));
            }
            records.push_back(std::move(r));
        }
        qCInfo(lcSession, "finished: %s", error ? error->c_str() : "complete");
        emit setRan(sched_.course());
        emit finishedSet(records);
        return;
    }
    Record r = snapshot();
    r.status = error ? "aborted" : "complete";
    if (error)
        r.error = *error;
    qCInfo(lcSession, "finished: %s", error ? error->c_str() : "complete");
    emit finished(r);
}

Record Session::baseRecord(int child) const
{
    Record r;
    r.label = plan_.label;
    r.meta = plan_.meta;
    r.jobs = jobs_.empty() ? 0 : jobs_[std::size_t(child)];
    r.k = plan_.k;
    r.counters = plan_.counters;
    r.idle_s = plan_.idle_s;
    r.sample_s = plan_.periodS();
    r.host = hostInfo();
    r.child = interleaved() ? plan_.children[std::size_t(child)].argv : plan_.child;
    if (plan_.exec)  // the record (and so the journal's header, a recovered record) says which command
        r.extra["exec"] = execRecordField(plan_, r.child);
    r.tool = std::make_pair(std::string(kToolName), std::string(kToolVersion));
    for (const auto& s : samplers_) {
        r.counter_info.emplace_back(s->spec(), s->counterInfo());
        r.sampler.emplace_back(s->spec(), s->figures());
    }
    if (task_reader_)
        r.counter_info.emplace_back("task", nlohmann::ordered_json{{"kind", "task"}});
    if (!started_at_.empty())
        setStartedAt(r, started_at_);  // wall-clock start (the library's time)
    if (!profiles_.empty()) {
        // The counters' profiles (measured, or the kind's default marked as such), and the
        // averaging tails their brackets waited out.
        nlohmann::ordered_json profs = nlohmann::ordered_json::object();
        nlohmann::ordered_json tails = nlohmann::ordered_json::object();
        for (std::size_t i = 0; i < profiles_.size(); ++i) {
            profs[profiles_[i].spec] = profiles_[i].toJson();
            if (tails_ns_[i] > 0)
                tails[profiles_[i].spec] = {{"tail_ms", double(tails_ns_[i]) / 1e6},
                                            {"averaging_window_ms", profiles_[i].averaging_window_ms},
                                            {"profile", profiles_[i].measured ? "measured" : "default"}};
        }
        r.extra["counter_profiles"] = std::move(profs);
        if (!tails.empty())
            r.extra["averaged_brackets"] = std::move(tails);
    }
    if (const double period_ms = plan_.phasePeriodMs(); period_ms > 0) {
        // Random round phases: how the offsets (rounds[i].phase_offset_ns) were drawn.
        nlohmann::ordered_json ph;
        ph["seed"] = plan_.phase_seed;
        ph["period_ms"] = period_ms;
        ph["period_from"] = plan_.phase_period_ms > plan_.sample_ms && !plan_.phase_period_source.empty()
            ? plan_.phase_period_source
            : std::string("the sampling period");
        r.extra["phases"] = std::move(ph);
    }
    setWarnings(r, warnings_);
    std::vector<std::string> aligned;
    for (std::size_t i = 0; i < samplers_.size(); ++i)
        if (cutOnUpdates(i))
            aligned.push_back(samplers_[i]->spec());
    setAlignedCuts(r, aligned);
    if (interleaved())
        setInterleaved(r, interleavedInfo(child));
    return r;
}

InterleavedInfo Session::interleavedInfo(int child, std::optional<DroppedChild> dropped) const
{
    // Which of the run's children this record is, and where its rounds sat in the blocks.
    InterleavedInfo in;
    in.name = plan_.children[std::size_t(child)].name;
    in.index = child;
    for (const PlanChild& c : plan_.children)
        in.children.push_back(c.name);
    in.warmup_blocks = plan_.warmup;
    in.order_seed = plan_.order_seed;
    in.dropped = std::move(dropped);
    return in;
}

Record Session::snapshot() const
{
    Record r = baseRecord();
    r.rounds = rounds_;
    addPhaseEnergy(r);
    if (plan_.with_samples)
        for (const auto& s : samplers_)
            r.samples.emplace_back(s->spec(), s->store()->all());
    return r;
}

void Session::openJournal()
{
    if (plan_.journal_path.empty())
        return;
    auto j = Journal::create(plan_.journal_path, baseRecord());
    if (!j) {
        fail("cannot keep the journal: " + j.error());
        return;
    }
    journal_ = std::move(j.value());
    journaled_upto_.assign(samplers_.size(), 0);
}

void Session::journalRound(const Round& round)
{
    if (!journal_)
        return;
    SamplesBySpec since;
    for (std::size_t i = 0; i < samplers_.size(); ++i) {
        auto iv = samplers_[i]->store()->slice(journaled_upto_[i], SIZE_MAX);
        journaled_upto_[i] += iv.size();
        since.emplace_back(samplers_[i]->spec(), std::move(iv));
    }
    if (Status st = journal_->appendRound(round, since); !st) {
        warnings_.push_back("journal: " + st.error());
        emit warning(QString::fromStdString("journal: " + st.error()));
    }
}

void Session::readTaskSettled(std::function<void(Result<TaskSample>)> then)
{
    settle_then_ = std::move(then);
    settle_tries_ = 0;
    settle_prev_.reset();
    settleStep();
}

void Session::settleStep()
{
    if (state_ == State::Finished || !settle_then_)
        return;
    auto cur = task_reader_->read(child()->pid());
    if (!cur) {
        auto then = std::move(settle_then_);
        then(Error{cur.error()});
        return;
    }
    if (settle_prev_ && settledPair(*settle_prev_, cur.value())) {
        auto then = std::move(settle_then_);
        then(cur.value());
        return;
    }
    if (++settle_tries_ > kSettleMaxTries) {
        auto then = std::move(settle_then_);
        then(Error{"the child's CPU time never settled (it kept running between rounds)"});
        return;
    }
    settle_prev_ = cur.value();
    settle_poll_->start(kSettlePollNs);
}

}  // namespace jb

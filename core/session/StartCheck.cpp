#include <jb/session/StartCheck.h>

#include <jb/base/Text.h>

#include <jb/base/Clock.h>
#include <jb/stats/CounterResolution.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace jb {

namespace {

std::string seconds(double s)
{
    char buf[32];
    if (s < 0.01)
        std::snprintf(buf, sizeof buf, "%.1f ms", s * 1000.0);
    else if (s < 1.0)
        std::snprintf(buf, sizeof buf, "%.0f ms", s * 1000.0);
    else
        std::snprintf(buf, sizeof buf, "%.1f s", s);
    return buf;
}

std::string fixed1(double v)
{
    return formatted("%.1f", v);
}

}  // namespace

int suggestK(double pass_s, double period_s)
{
    if (!(pass_s > 0) || !(period_s > 0))
        return 1;
    const double k = std::ceil(kCoarseUpdates * period_s / pass_s - 1e-9);
    return int(std::clamp(k, 1.0, 100000.0));  // the form's and the CLI's largest k
}

std::vector<PlanChild> planWorkloads(const Plan& plan)
{
    const Plan p = launchPlan(plan);  // --exec: the shim runs each command
    if (!p.children.empty())
        return p.children;
    std::string name = p.label.value_or("");
    if (name.empty())
        for (const std::string& a : plan.child)
            name += (name.empty() ? "" : " ") + a;
    return {PlanChild{name, p.child, {}}};
}

StartCheck checkStart(const Plan& p, const std::vector<ProbeResult>& probes,
                      std::optional<double> update_period_s)
{
    StartCheck c;
    c.k = p.k;
    c.period_s = std::max(p.periodS(), update_period_s.value_or(0.0));
    const bool updates = update_period_s && *update_period_s > p.periodS();
    const std::string unit = updates ? "counter update" : "sample";
    for (const ProbeResult& r : probes) {
        if (!r.error.empty()) {
            c.problems.push_back(r.name + ": " + r.error);
            continue;
        }
        if (!r.skipped.empty() || r.pass_ns <= 0 || r.at_least)
            continue;
        const double pass_s = double(r.pass_ns) / 1e9;
        const double round_s = pass_s * p.k;
        const double periods = round_s / c.period_s;
        if (periods >= kStartMinPeriods - 1e-9)  // 0.3 s / 0.1 s is 2.9999999999999996
            continue;
        const int k = suggestK(pass_s, c.period_s);
        c.suggested_k = std::max(c.suggested_k, k);
        std::string w = r.name + ": each round (k = " + std::to_string(p.k) + ") would last about " +
            seconds(round_s) + ", ";
        if (periods < 1.0)
            w += "less than one " + seconds(c.period_s) + " " + unit;
        else
            w += "only " + fixed1(periods) + " " + unit + "s of " + seconds(c.period_s);
        w += periods < 2.0 ? ": its rounds would get no verdict"
                           : ": its verdicts would rest on a coarse counter";
        c.warnings.push_back(w);
    }
    return c;
}

std::string StartCheck::text() const
{
    std::string out;
    for (const std::string& s : problems)
        out += (out.empty() ? "" : "\n") + ("Will not work: " + s);
    for (const std::string& s : warnings)
        out += (out.empty() ? "" : "\n") + ("Too short: " + s);
    if (suggested_k > 0) {
        char period[64];
        std::snprintf(period, sizeof period, "%g", kCoarseUpdates);
        out += "\nFix: use k = " + std::to_string(suggested_k) + " (each round then spans about " + period +
            " periods of " + seconds(period_s) + "; chosen from the counter's period and a one-pass probe).";
    }
    return out;
}

WorkloadProbe::WorkloadProbe(std::vector<PlanChild> workloads, std::string workdir, QObject* parent)
    : QObject(parent), workloads_(std::move(workloads)), workdir_(std::move(workdir))
{
    timer_.setSingleShot(true);
    // A coarse timer may fire up to 5% early: a pass cut off by it must have lasted the wait.
    timer_.setTimerType(Qt::PreciseTimer);
    connect(&timer_, &QTimer::timeout, this, [this] {
        if (!child_)
            return;
        ProbeResult r;
        if (in_pass_) {
            r.pass_ns = monotonicNs() - pass_t0_ns_;
            r.at_least = true;  // a pass this long is long enough
        } else {
            r.skipped = "the child took over " + seconds(ready_wait_s_) + " to get ready: not probed";
        }
        endChild(std::move(r));
    });
}

WorkloadProbe::~WorkloadProbe() = default;  // the child's destructor ends it

void WorkloadProbe::start()
{
    results_.clear();
    at_ = 0;
    cancelled_ = false;
    next();
}

void WorkloadProbe::cancel()
{
    cancelled_ = true;
    timer_.stop();
    child_.reset();
}

void WorkloadProbe::next()
{
    if (cancelled_)
        return;
    if (at_ >= workloads_.size()) {
        emit finished(results_);
        return;
    }
    const PlanChild& w = workloads_[at_];
    child_ = std::make_unique<DecoderChild>(w.argv, w.workdir.empty() ? workdir_ : w.workdir);
    child_->setForwardStderr(false);
    in_pass_ = false;
    if (Status st = child_->checkLaunchable(); !st) {
        ProbeResult r;
        r.error = st.error();
        endChild(std::move(r));
        return;
    }
    DecoderChild* c = child_.get();
    connect(c, &DecoderChild::ready, this, [this] {
        in_pass_ = true;
        pass_t0_ns_ = monotonicNs();
        timer_.start(int(pass_wait_s_ * 1000));
        child_->go(1);
    });
    connect(c, &DecoderChild::done, this, [this](const DoneLine& d) {
        ProbeResult r;
        r.pass_ns = d.wall_ns > 0 ? d.wall_ns : monotonicNs() - pass_t0_ns_;
        endChild(std::move(r));
    });
    connect(c, &DecoderChild::failed, this, [this](const QString& message) {
        ProbeResult r;
        r.error = message.toStdString();
        endChild(std::move(r));
    });
    timer_.start(int(ready_wait_s_ * 1000));
    c->start();
}

void WorkloadProbe::endChild(ProbeResult r)
{
    timer_.stop();
    r.name = workloads_[at_].name;
    results_.push_back(std::move(r));
    ++at_;
    // Not from inside the child's own signal: it is ended (SIGKILL to its group) on the next
    // turn of the event loop, and the next workload probed then.
    if (child_) {
        child_->disconnect(this);
        DecoderChild* old = child_.release();
        old->sendExit();
        old->deleteLater();
    }
    QTimer::singleShot(0, this, &WorkloadProbe::next);
}

}  // namespace jb

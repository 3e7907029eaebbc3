#pragma once
// The check before Start: will the plan's rounds be long enough for the counter to see them?
// A round shorter than a few counter samples gets no verdict (its busy bracket holds fewer than
// two intervals) or a coarse one, whatever the workload does. The check probes each workload
// briefly (its child started, one `go 1` timed, then `exit`: WorkloadProbe) and, where a round
// of the plan's k would be too short, says so and chooses the k that gives kCoarseUpdates
// counter periods per round (suggestK). Pure arithmetic in checkStart; the probe is a
// QObject that never blocks (DecoderChild's signals, a timer).
#include <jb/child/DecoderChild.h>
#include <jb/session/Plan.h>

#include <QObject>
#include <QTimer>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace jb {

// A round of fewer counter periods than this is too short: it gets no verdict or a poor one.
inline constexpr double kStartMinPeriods = 3.0;

// One workload's probe: one pass over its jobs (`go 1`) timed.
struct ProbeResult {
    std::string name;          // the workload's name (or its command line)
    std::int64_t pass_ns = 0;  // the pass's wall time (the child's own figure); 0: none
    bool at_least = false;     // the probe stopped waiting: a pass takes at least pass_ns
    std::string error;         // the child could not be probed: why (the run would fail too)
    std::string skipped;       // not probed, and why (e.g. slow to get ready): not a problem
};

struct StartCheck {
    double period_s = 0;                // the counter period a round is measured in (sample or update period)
    int k = 1;                          // the plan's k
    int suggested_k = 0;                // a k that makes every round long enough; 0: the plan's k is fine
    std::vector<std::string> problems;  // the probe failed: what will not work
    std::vector<std::string> warnings;  // rounds too short, one line per workload
    bool ok() const { return problems.empty() && warnings.empty(); }
    // For people: the problems and warnings, then the fix ("Use k = 12: ...").
    std::string text() const;
};

// The smallest k whose round (k passes of pass_s) spans kCoarseUpdates counter periods.
int suggestK(double pass_s, double period_s);

// The plan's rounds against the probes. update_period_s: the counter's own update period where
// known (a counter that changes every 250 ms sampled every 100 ms is measured in 250 ms steps);
// the plan's sample period otherwise.
StartCheck checkStart(const Plan& p, const std::vector<ProbeResult>& probes,
                      std::optional<double> update_period_s = std::nullopt);

// The plan's workloads, in order, with their names: the children, or the one child; with --exec
// their argv as launched (launchPlan: the shim's).
std::vector<PlanChild> planWorkloads(const Plan& p);

// Probes every workload in turn: starts it, waits for `ready` (at most ready_wait_s: a child
// slower to start is not probed), sends `go 1` and times it (at most pass_wait_s: a longer pass
// is long enough), then `exit`. finished() carries one ProbeResult per workload.
class WorkloadProbe : public QObject {
    Q_OBJECT
public:
    WorkloadProbe(std::vector<PlanChild> workloads, std::string workdir, QObject* parent = nullptr);
    ~WorkloadProbe() override;

    void setReadyWaitS(double s) { ready_wait_s_ = s; }
    void setPassWaitS(double s) { pass_wait_s_ = s; }
    void start();
    void cancel();  // ends the child at hand; finished() is not emitted
    bool running() const { return child_ != nullptr; }

signals:
    void finished(const std::vector<jb::ProbeResult>& results);

private:
    void next();
    void endChild(ProbeResult r);

    std::vector<PlanChild> workloads_;
    std::string workdir_;
    std::vector<ProbeResult> results_;
    std::unique_ptr<DecoderChild> child_;
    QTimer timer_;
    std::size_t at_ = 0;
    bool in_pass_ = false;
    bool cancelled_ = false;
    std::int64_t pass_t0_ns_ = 0;
    double ready_wait_s_ = 10.0;
    double pass_wait_s_ = 5.0;
};

}  // namespace jb

#pragma once
// The Noise lab page: a counter's idle noise and what it lets a round resolve, live or from a
// record.
//
//   Simulated: the `sim` counter under sliders (SimSource); the chart, the ratio and the verdict
//              follow the sliders as they move.
//   Real:      a real jb::Session (SessionSource, on its backend thread) on the machine's
//              counter with the bundled demo decoder, so the room sees the real noise next.
//   Record:    a saved record's idle brackets and rounds (showRecord / openRecord).
//   Replay:    that record played back as it ran (ReplaySource, at a chosen speed), round by
//              round, through the same live figures as the other two runs.
//
// The runs themselves (which is live, switching, a real run's restart) are core's NoiseLabRun:
// the page maps its buttons and sliders onto it and draws the live run's events.
//
// In each: the power trace (PowerChart), the verdict in large type, the rounds' marginal
// power against the verdict floors (threshold x idle sd), what those floors are in W and J,
// the idle power histogram with its normal fit, its Allan deviation, and the planner.
#include <jb/base/Result.h>
#include <jb/counters/CounterRegistry.h>
#include <jb/live/RunState.h>
#include <jb/noise/RealCounter.h>
#include <jb/noise/RecordNoise.h>
#include <jb/record/Record.h>
#include <jb/session/PhaseEvent.h>

#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QButtonGroup;
class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace jb {

class AllanChart;
class HistogramChart;
class PlannerPanel;
class PowerChart;
class NoiseLabRun;
class ResolutionModel;
class RoundsChart;
class SampleStore;
class SimControls;
class VerdictBanner;

struct NoiseLabOptions {
    CounterOptions counters;  // where the real counters are looked for
    // The decoder a real run measures; empty: joulebench-demo-decoder next to the dashboard.
    QString decoder;
    QStringList decoder_args = {QStringLiteral("serve"), QStringLiteral("--jobs"), QStringLiteral("4")};
    std::uint64_t seed = 1;        // the simulation's noise
    bool start_when_shown = true;  // the simulation starts the first time the page is shown
};

class NoiseLabPage : public QWidget {
    Q_OBJECT
public:
    enum class Mode { Simulated, Real, Record, Replay };
    static constexpr int kRoundsShown = 30;   // on the rounds chart
    static constexpr int kBracketsUsed = 20;  // newest live idle brackets in the noise figures
    static constexpr int kRefreshMs = 100;

    explicit NoiseLabPage(NoiseLabOptions options = {}, QWidget* parent = nullptr);
    ~NoiseLabPage() override;

    Mode mode() const { return mode_; }
    // A record's noise and rounds (live runs stop). title: shown above ("file name").
    void showRecord(const Record& r, const QString& title = {});
    Status openRecord(const QString& path);
    void startSimulated();
    // Starts the real counter with the demo decoder; false (and the reason in the status line)
    // where no real counter is readable or the session refuses the plan.
    bool startReal();
    // Plays the record shown (its counter shown) back from its start at speed x; false (and
    // the reason in the status line) where it has no raw samples of that counter.
    bool startReplay(double speed);
    static constexpr double kReplaySpeeds[] = {1, 4, 16, 64};
    const RealCounterChoice& realCounter() const;

    // Recomputes every figure from what has been measured (the timer's tick; tests call it).
    void refresh();

    SimControls* controls() const { return controls_; }
    // The lab's live runs (which one is live, its source; tests drive its sources' clocks).
    NoiseLabRun* lab() const { return lab_; }
    VerdictBanner* banner() const { return banner_; }
    PlannerPanel* planner() const { return planner_; }
    PowerChart* trace() const { return trace_; }
    RoundsChart* roundsChart() const { return rounds_chart_; }
    HistogramChart* histogram() const { return histogram_; }
    AllanChart* allan() const { return allan_; }
    ResolutionModel* resolutionModel() const { return resolution_; }
    QPushButton* simButton() const { return sim_button_; }
    QPushButton* realButton() const { return real_button_; }
    QPushButton* replayButton() const { return replay_button_; }  // in Record and Replay modes
    QLabel* statusLabel() const { return status_; }
    bool traceShown() const;  // false where the placeholder stands instead (no raw samples)
    // The idle noise the figures show now (live brackets or the record's).
    const std::optional<RecordNoise>& noise() const { return noise_; }
    const std::vector<Round>& rounds() const { return run_.rounds(); }
    const std::string& counter() const { return run_.spec(); }
    const RunState& run() const { return run_; }

signals:
    void modeChanged(jb::NoiseLabPage::Mode mode);
    void roundShown(int index, const QString& verdict);  // a live round reached the banner
    void recordOpened(const QString& path);

protected:
    void showEvent(QShowEvent* e) override;
    void hideEvent(QHideEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;  // a short page: the compact banner

private:
    void buildUi();
    void setMode(Mode m);
    void showRecordCounter(const std::string& spec);
    void beginLive(std::int64_t origin_ns, std::shared_ptr<const SampleStore> store, const std::string& spec,
                   double period_s);
    void onPhase(const PhaseEvent& e);
    void onRound(int index, const Round& r);
    void onSettings();
    void onTimer();
    void updateBanner();
    void updatePhaseText();
    void updateTraceWindow();
    void updateNoiseFigures();
    void updateRounds();
    void setStatus(const QString& text, bool error = false);
    void showTrace(bool shown, const QString& placeholder = {});
    double busyWindowS() const;
    double idleS() const;
    std::int64_t nowNs() const;

    NoiseLabOptions options_;
    Mode mode_ = Mode::Simulated;
    bool started_once_ = false;

    NoiseLabRun* lab_;  // the live runs: the simulation, the real counter, a replay
    QTimer timer_;
    int ticks_ = 0;

    // What is shown.
    RunState run_;
    std::optional<Record> record_;
    QString record_title_;  // what the source line calls the record (its file name)
    std::optional<RecordNoise> noise_;
    std::vector<double> figures_key_;  // what the noise figures were last drawn from
    // The number of the first round at the present settings: "Last N rounds" counts from it.
    std::size_t verdicts_from_ = 0;

    // Widgets.
    QPushButton* sim_button_ = nullptr;
    QPushButton* real_button_ = nullptr;
    QPushButton* open_button_ = nullptr;
    QPushButton* replay_button_ = nullptr;
    QComboBox* replay_speed_ = nullptr;
    QComboBox* record_counter_ = nullptr;
    QLabel* source_ = nullptr;
    QLabel* status_ = nullptr;
    SimControls* controls_ = nullptr;
    PlannerPanel* planner_ = nullptr;
    VerdictBanner* banner_ = nullptr;
    PowerChart* trace_ = nullptr;
    QLabel* trace_placeholder_ = nullptr;  // instead of the trace where a record has no samples
    QStackedWidget* trace_stack_ = nullptr;
    RoundsChart* rounds_chart_ = nullptr;
    QTableView* resolution_view_ = nullptr;
    ResolutionModel* resolution_ = nullptr;
    HistogramChart* histogram_ = nullptr;
    AllanChart* allan_ = nullptr;
};

}  // namespace jb

Q_DECLARE_METATYPE(jb::NoiseLabPage::Mode)

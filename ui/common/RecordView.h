#pragma once
// A run on screen: the power chart (with shading and idle bands), the summary strip and the
// rounds table, for one counter at a time. Shows a live run as it goes (the Measure page) or
// a finished jb::Record read-only (opened files; the Inspector page reuses it).
#include <jb/live/RunSource.h>
#include <jb/live/RunState.h>
#include <jb/record/Record.h>
#include <jb/session/Session.h>

#include <QTimer>
#include <QWidget>

#include <memory>
#include <string>
#include <utility>
#include <vector>

class QComboBox;
class QLabel;
class QTableView;

namespace jb {

class ChartPanel;
class PowerChart;
class RoundsModel;
class SampleStore;
class SummaryStrip;

class RecordView : public QWidget {
    Q_OBJECT
public:
    explicit RecordView(QWidget* parent = nullptr);
    ~RecordView() override;

    // A finished record: its raw samples (where it has them) on the chart, its rounds in the
    // table.
    void showRecord(const Record& r);
    // A live run: the stores fill as it goes; base holds the plan's figures (label, k, ...).
    void beginLive(std::int64_t origin_ns, StoreList stores, double expected_s, Record base = {});
    void applyPhase(const PhaseEvent& e);
    void applyRound(int index, const Round& r);
    // The child marked a phase boundary (RunSource::phaseMarked): the chart's phase strips grow.
    void applyMark(int round, const QString& name, qint64 t_ns);
    // An interleaved run: each workload's busy windows in its own colour (after beginLive).
    void setWorkloads(std::vector<std::string> names, std::vector<int> workload_of_round);
    // The run ended: the session's record replaces the partial one; the chart keeps the stores.
    void endLive(const Record& r);
    void clear(const QString& placeholder);

    const Record& record() const { return record_; }
    bool isLive() const { return live_; }
    std::int64_t originNs() const { return origin_ns_; }
    const StoreList& stores() const { return stores_; }
    std::string counter() const;
    void setCounter(const std::string& spec);

    ChartPanel* chartPanel() const { return chartPanel_; }
    PowerChart* chart() const;
    RoundsModel* roundsModel() const { return model_; }
    QTableView* table() const { return table_; }
    SummaryStrip* summary() const { return summary_; }

signals:
    void counterChanged(const QString& spec);

private:
    void setCounters(const std::vector<std::string>& specs);
    void refreshCounter();
    void refreshOverlays();
    void refreshSummary();
    std::shared_ptr<const SampleStore> storeOf(const std::string& spec) const;

    QComboBox* counterBox_;
    QLabel* counterLabel_;
    ChartPanel* chartPanel_;
    RoundsModel* model_;
    QTableView* table_;
    SummaryStrip* summary_;
    QTimer overlayTimer_;  // live: the open idle bracket's band grows

    Record record_;
    StoreList stores_;
    std::int64_t origin_ns_ = 0;
    bool live_ = false;
    RunState timeline_;  // the run's spans and rounds
};

}  // namespace jb

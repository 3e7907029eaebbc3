#include "common/RecordView.h"

#include "chart/ChartPanel.h"
#include "chart/PowerChart.h"
#include "common/RoundsModel.h"
#include "common/RunShading.h"
#include "common/SummaryStrip.h"
#include "common/VerdictDelegate.h"
#include <jb/sampling/SampleStore.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <limits>

namespace jb {

RecordView::RecordView(QWidget* parent)
    : QWidget(parent),
      counterBox_(new QComboBox(this)),
      counterLabel_(new QLabel(tr("Counter"), this)),
      chartPanel_(new ChartPanel(this)),
      model_(new RoundsModel(this)),
      table_(new QTableView(this)),
      summary_(new SummaryStrip(this))
{
    counterBox_->setObjectName(QStringLiteral("counterBox"));
    counterBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    counterBox_->setToolTip(tr("The counter shown in the chart, the table and the summary"));
    chartPanel_->toolbar()->insertWidget(0, counterLabel_);
    chartPanel_->toolbar()->insertWidget(1, counterBox_);
    chartPanel_->toolbar()->insertSpacing(2, 12);

    table_->setObjectName(QStringLiteral("roundsTable"));
    table_->setModel(model_);
    table_->setItemDelegateForColumn(RoundsModel::VerdictCol,
                                     new VerdictDelegate(RoundsModel::VerdictRole, table_));
    table_->setAlternatingRowColors(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    // Columns fit their contents after every change (the header's own ResizeToContents left
    // live rows elided); the user may still widen them.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table_->horizontalHeader()->setStretchLastSection(false);
    auto fit = [this] { QTimer::singleShot(0, table_, [this] { table_->resizeColumnsToContents(); }); };
    connect(model_, &QAbstractItemModel::rowsInserted, table_, fit);
    connect(model_, &QAbstractItemModel::modelReset, table_, fit);
    connect(model_, &QAbstractItemModel::dataChanged, table_, fit);
    table_->horizontalHeader()->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);
    // An interleaved run's workload column, beside the round number; hidden for one workload.
    table_->horizontalHeader()->moveSection(RoundsModel::WorkloadCol, RoundsModel::RoundCol + 1);
    table_->setColumnHidden(RoundsModel::WorkloadCol, true);
    table_->setWordWrap(false);

    summary_->setObjectName(QStringLiteral("summaryStrip"));

    auto* lower = new QWidget(this);
    auto* lv = new QVBoxLayout(lower);
    lv->setContentsMargins(0, 0, 0, 0);
    lv->setSpacing(4);
    lv->addWidget(summary_);
    lv->addWidget(table_, 1);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(chartPanel_);
    split->addWidget(lower);
    split->setStretchFactor(0, 5);
    split->setStretchFactor(1, 3);
    split->setChildrenCollapsible(false);

    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->addWidget(split);

    connect(counterBox_, &QComboBox::currentTextChanged, this, [this](const QString& spec) {
        refreshCounter();
        emit counterChanged(spec);
    });
    overlayTimer_.setInterval(250);
    connect(&overlayTimer_, &QTimer::timeout, this, &RecordView::refreshOverlays);
    clear(tr("No run yet: fill in the form and press Start, or open a record."));
}

RecordView::~RecordView() = default;

PowerChart* RecordView::chart() const
{
    return chartPanel_->chart();
}

std::string RecordView::counter() const
{
    return counterBox_->currentText().toStdString();
}

void RecordView::setCounter(const std::string& spec)
{
    const int i = counterBox_->findText(QString::fromStdString(spec));
    if (i >= 0)
        counterBox_->setCurrentIndex(i);
}

void RecordView::setCounters(const std::vector<std::string>& specs)
{
    const QSignalBlocker block(counterBox_);
    const QString keep = counterBox_->currentText();
    counterBox_->clear();
    for (const std::string& s : specs)
        counterBox_->addItem(QString::fromStdString(s));
    const int i = counterBox_->findText(keep);
    counterBox_->setCurrentIndex(i >= 0 ? i : 0);
    // One counter needs no chooser; several do.
    counterBox_->setVisible(specs.size() > 1);
    counterLabel_->setText(specs.size() == 1 ? tr("Counter: %1").arg(QString::fromStdString(specs.front()))
                                             : tr("Counter"));
    counterLabel_->setVisible(!specs.empty());
}

std::shared_ptr<const SampleStore> RecordView::storeOf(const std::string& spec) const
{
    for (const auto& [k, s] : stores_)
        if (k == spec)
            return s;
    return nullptr;
}

void RecordView::clear(const QString& placeholder)
{
    overlayTimer_.stop();
    live_ = false;
    record_ = Record{};
    stores_.clear();
    timeline_.clear();
    origin_ns_ = 0;
    setCounters({});
    model_->clear();
    chart()->clear(placeholder);
    summary_->clearSummary(tr("No rounds yet."));
}

void RecordView::showRecord(const Record& r)
{
    overlayTimer_.stop();
    live_ = false;
    record_ = r;
    stores_.clear();
    for (const auto& [spec, iv] : r.samples) {
        auto s = std::make_shared<SampleStore>();
        s->appendBatch(iv);
        stores_.emplace_back(spec, std::move(s));
    }
    timeline_ = RunState::fromRecord(r);
    // Time 0 is where the record's first sample or bracket starts.
    std::int64_t origin = std::numeric_limits<std::int64_t>::max();
    for (const auto& [_, iv] : r.samples)
        if (!iv.empty())
            origin = std::min(origin, iv.front().t0_ns);
    if (auto f = timeline_.firstNs())
        origin = std::min(origin, *f);
    origin_ns_ = origin == std::numeric_limits<std::int64_t>::max() ? 0 : origin;
    model_->setRounds(r.rounds);
    model_->setWorkloads({}, {});
    table_->setColumnHidden(RoundsModel::WorkloadCol, true);
    setCounters(r.wholeDeviceCounters());
    chart()->setMinimumSpan(0.001);
    chart()->resetView();
    refreshCounter();
}

void RecordView::beginLive(std::int64_t origin_ns, StoreList stores, double expected_s, Record base)
{
    live_ = true;
    record_ = std::move(base);
    record_.rounds.clear();
    stores_ = std::move(stores);
    origin_ns_ = origin_ns;
    timeline_.clear();
    model_->clear();
    table_->setColumnHidden(RoundsModel::WorkloadCol, true);
    std::vector<std::string> specs;
    for (const auto& [spec, _] : stores_)
        specs.push_back(spec);
    setCounters(specs);
    chart()->setMinimumSpan(expected_s);
    chart()->setFrozen(false);
    chart()->resetView();
    refreshCounter();
    overlayTimer_.start();
}

void RecordView::setWorkloads(std::vector<std::string> names, std::vector<int> workload_of_round)
{
    model_->setWorkloads(names, workload_of_round);
    table_->setColumnHidden(RoundsModel::WorkloadCol, names.empty());
    timeline_.setWorkloads(std::move(names), std::move(workload_of_round));
    refreshOverlays();
}

void RecordView::applyPhase(const PhaseEvent& e)
{
    timeline_.apply(e);
    refreshOverlays();
}

void RecordView::applyMark(int round, const QString& name, qint64 t_ns)
{
    timeline_.applyMark(round, name.toStdString(), t_ns);
    refreshOverlays();
}

void RecordView::applyRound(int index, const Round& r)
{
    if (index >= 0) {
        if (std::size_t(index) >= record_.rounds.size())
            record_.rounds.resize(std::size_t(index) + 1);
        record_.rounds[std::size_t(index)] = r;
    }
    timeline_.setRound(index, r);
    model_->setRound(index, r);
    refreshOverlays();
    refreshSummary();
}

void RecordView::endLive(const Record& r)
{
    overlayTimer_.stop();
    live_ = false;
    record_ = r;
    // The session's rounds are the truth; the timeline keeps the live phases (the record
    // may lack an open bracket's end) and takes the final figures.
    for (std::size_t i = 0; i < r.rounds.size(); ++i)
        timeline_.setRound(int(i), r.rounds[i]);
    model_->setRounds(r.rounds);
    chart()->setLive(false);
    chart()->redraw();
    refreshOverlays();
    refreshSummary();
}

void RecordView::refreshCounter()
{
    const std::string spec = counter();
    model_->setCounter(spec);
    const auto store = storeOf(spec);
    if (store) {
        chart()->setSource(store, origin_ns_, live_);
        chart()->setSeriesName(QString::fromStdString(spec));
    } else {
        chart()->clear(record_.rounds.empty()
                           ? tr("No samples")
                           : tr("This record holds no raw samples: only its rounds can be shown."));
    }
    refreshOverlays();
    refreshSummary();
}

void RecordView::refreshOverlays()
{
    const std::string spec = counter();
    const auto store = storeOf(spec);
    if (!store) {
        chart()->setShades({});
        chart()->setBands({});
        chart()->setPhases({});
        return;
    }
    std::int64_t newest = origin_ns_;
    if (const std::size_t n = store->size())
        newest = store->slice(n - 1, n).front().t1_ns;
    chart()->setShades(chartShades(timeline_, spec, origin_ns_));
    chart()->setPhases(chartPhases(timeline_, origin_ns_));
    chart()->setBands(chartBands(timeline_, spec, origin_ns_, newest, [&store](std::int64_t t0, std::int64_t t1) {
        // The same slice and arithmetic the session uses for an idle bracket.
        const auto iv = store->between(t0, t1);
        return bracket(iv);
    }));
}

void RecordView::refreshSummary()
{
    const std::string spec = counter();
    if (spec.empty()) {
        summary_->clearSummary(record_.rounds.empty() ? tr("No rounds yet.")
                                                      : tr("No whole-device counter in this record."));
        return;
    }
    const std::vector<std::string>& workloads = timeline_.workloads();
    if (workloads.size() > 1) {
        // Interleaved: each workload's own rounds (a summary of their mix would mean nothing).
        std::vector<int> of(record_.rounds.size());
        std::vector<int> count(workloads.size());
        for (std::size_t i = 0; i < of.size(); ++i) {
            of[i] = timeline_.workloadOfRound(int(i));
            if (of[i] >= 0 && of[i] < int(count.size()))
                ++count[std::size_t(of[i])];
        }
        const std::vector<CounterSummary> each = summariesByWorkload(record_, spec, of, int(workloads.size()));
        std::vector<SummaryStrip::Part> parts;
        for (std::size_t w = 0; w < workloads.size(); ++w)
            parts.push_back({QString::fromStdString(workloads[w]), each[w], count[w]});
        summary_->setSummaries(QString::fromStdString(spec), parts);
        return;
    }
    summary_->setSummary(QString::fromStdString(spec), summaryOf(record_, spec), int(record_.rounds.size()));
}

}  // namespace jb

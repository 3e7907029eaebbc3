#include "inspector/RecordTab.h"

#include "chart/ChartPanel.h"
#include "chart/PowerChart.h"
#include "common/Banner.h"
#include "common/CsvExport.h"
#include "common/Format.h"
#include "common/PageTabs.h"
#include "common/Palette.h"
#include "common/RecordFiles.h"
#include "common/RecordView.h"
#include "common/RoundsModel.h"
#include "inspector/MetadataView.h"
#include "inspector/PhaseTable.h"
#include "inspector/ResolutionProxyModel.h"
#include "inspector/RoundChart.h"
#include "inspector/VerifyPanel.h"
#include <jb/stats/CounterResolution.h>
#include <jb/stats/CounterTrust.h>
#include <jb/stats/RoundEnergy.h>

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace jb {

namespace {

using fmt::q;

}  // namespace

RecordTab::RecordTab(const QString& path, QWidget* parent)
    : QWidget(parent),
      path_(path),
      stack_(new QStackedWidget(this)),
      loadingLabel_(new QLabel(this)),
      loadingBar_(new QProgressBar(this)),
      header_(new QLabel(this)),
      export_(new QToolButton(this)),
      banner_(new Banner(this)),
      coarse_(new Banner(this)),
      trust_(new Banner(this)),
      view_(new RecordView(this)),
      proxy_(new ResolutionProxyModel(this)),
      side_(new PageTabs(this)),
      roundChart_(new RoundChart(this)),
      roundNote_(new QLabel(this)),
      verify_(new VerifyPanel(this)),
      metadata_(new MetadataView(this)),
      phases_(new PhaseTable(this))
{
    // While loading: a line and a busy bar (parsing gives no percentage to show).
    auto* loading = new QWidget(this);
    auto* lv = new QVBoxLayout(loading);
    lv->addStretch(1);
    loadingLabel_->setObjectName(QStringLiteral("loadingLabel"));
    loadingLabel_->setAlignment(Qt::AlignCenter);
    loadingBar_->setRange(0, 0);
    loadingBar_->setMaximumWidth(420);
    lv->addWidget(loadingLabel_);
    lv->addWidget(loadingBar_, 0, Qt::AlignHCenter);
    lv->addStretch(2);
    setProgress(QStringLiteral("reading"));

    // Loaded: header, banners, then the record view beside the per-round chart, verify and
    // metadata.
    auto* content = new QWidget(this);
    header_->setObjectName(QStringLiteral("recordHeader"));
    header_->setTextFormat(Qt::RichText);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    export_->setObjectName(QStringLiteral("exportButton"));
    export_->setText(tr("Export"));
    export_->setToolTip(
        tr("Rounds and samples as CSV, the charts as PNG or SVG, or a copy of the record file"));
    export_->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(export_);
    for (ExportKind k : {RoundsCsv, SamplesCsv, PowerPng, PowerSvg, RoundsPng, RoundsSvg, RecordCopy}) {
        if (k == PowerPng || k == RecordCopy)
            menu->addSeparator();
        QAction* a = menu->addAction(exportName(k) + QStringLiteral("…"), this,
                                     [this, k] { emit exportRequested(k); });
        a->setObjectName(QStringLiteral("export%1").arg(int(k)));
    }
    export_->setMenu(menu);
    auto* head = new QHBoxLayout;
    head->addWidget(header_, 1);
    head->addWidget(export_);

    banner_->setObjectName(QStringLiteral("recordBanner"));
    banner_->setTextFormat(Qt::RichText);
    coarse_->setObjectName(QStringLiteral("coarseBanner"));
    coarse_->setTextFormat(Qt::RichText);
    coarse_->setToolTip(q(resolutionRuleText()));
    trust_->setObjectName(QStringLiteral("trustBanner"));
    trust_->setTextFormat(Qt::RichText);
    trust_->setToolTip(q(counterTrustRuleText()));

    // The dashboard's rounds table, with the counter-updates column.
    proxy_->setRoundsModel(view_->roundsModel());
    view_->table()->setModel(proxy_);
    view_->clear(tr("Loading…"));

    auto* energy = new QWidget(this);
    auto* ev = new QVBoxLayout(energy);
    ev->setContentsMargins(4, 4, 4, 4);
    roundNote_->setObjectName(QStringLiteral("roundNote"));
    roundNote_->setWordWrap(true);
    roundNote_->setText(
        tr("Marginal energy per decode of each round, filled with its verdict's colour. Bars: ± one "
           "standard deviation from the idle noise (hover here for the formula); dashed: the median."));
    roundNote_->setToolTip(q(uncertaintyFormulaText()));
    roundNote_->setStyleSheet(QStringLiteral("color: palette(dark);"));
    roundChart_->setToolTip(q(uncertaintyFormulaText()));
    ev->addWidget(roundChart_, 1);
    ev->addWidget(roundNote_);

    side_->setObjectName(QStringLiteral("sideTabs"));
    side_->addTab(energy, tr("J/decode by round"));
    side_->addTab(verify_, tr("Verify"));
    side_->addTab(metadata_, tr("Metadata"));
    phases_->hide();  // a tab (after the energy by round) only for a record with phases

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(view_);
    split->addWidget(side_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    side_->setMinimumWidth(380);
    split->setSizes({900, 480});

    auto* cv = new QVBoxLayout(content);
    cv->setContentsMargins(6, 6, 6, 6);
    cv->setSpacing(6);
    cv->addLayout(head);
    cv->addWidget(banner_);
    cv->addWidget(coarse_);
    cv->addWidget(trust_);
    cv->addWidget(split, 1);

    stack_->addWidget(loading);
    stack_->addWidget(content);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->addWidget(stack_);

    connect(view_, &RecordView::counterChanged, this, &RecordTab::refreshCounter);
}

RecordTab::~RecordTab() = default;

bool RecordTab::showsPhases() const
{
    return side_->indexOf(phases_) >= 0;
}

QString RecordTab::fileName() const
{
    return QFileInfo(path_).fileName();
}

QString RecordTab::title() const
{
    const Record* r = record();
    if (r && r->label && !r->label->empty())
        return q(*r->label);
    return fileName();
}

std::string RecordTab::counter() const
{
    return view_->counter();
}

void RecordTab::setProgress(const QString& stage)
{
    const qint64 size = QFileInfo(path_).size();
    const QString mb = size >= 1 << 20
        ? QStringLiteral(" (%1 MB)").arg(double(size) / double(1 << 20), 0, 'f', 1)
        : QString();
    const QString what = stage == QLatin1String("verifying") ? tr("Recomputing its figures from the samples")
                                                             : tr("Reading and parsing");
    loadingLabel_->setText(tr("Opening %1%2…\n%3").arg(fileName(), mb, what));
}

QString RecordTab::loadingText() const
{
    return isLoaded() ? QString() : loadingLabel_->text();
}

void RecordTab::setLoaded(LoadedRecordPtr r)
{
    loaded_ = std::move(r);
    const Record& rec = *loaded_->record;
    view_->showRecord(rec);
    proxy_->setRecord(rec);
    verify_->setReport(loaded_->verify);
    metadata_->setRecord(rec, path_);

    // Header: what it is, in one line.
    QStringList facts;
    facts << fileName().toHtmlEscaped();
    facts << (rec.tool ? q(rec.tool->first + " " + rec.tool->second).toHtmlEscaped()
                       : tr("reference harness"));
    if (rec.status)
        facts << (rec.isAborted() ? QStringLiteral("<span style=\"color:%1\"><b>aborted</b></span>")
                                        .arg(palette::errorText().name())
                                  : q(*rec.status).toHtmlEscaped());
    facts << tr("%1 rounds").arg(rec.rounds.size());
    facts << (rec.samples.empty() ? tr("no raw samples") : tr("raw samples"));
    const QString label = rec.label ? q(*rec.label) : tr("(no label)");
    header_->setText(QStringLiteral("<span style=\"font-size:13pt\"><b>%1</b></span>&nbsp;&nbsp;%2")
                         .arg(label.toHtmlEscaped(), facts.join(QStringLiteral(" · "))));
    header_->setToolTip(path_);

    // The banner: an aborted run first and loudest; otherwise what is missing and why.
    if (rec.isAborted()) {
        const QString why = rec.error ? q(*rec.error) : tr("the record does not say why");
        banner_->setMessage(
            tr("<b>⚠ Aborted run:</b> %1<br>Only the rounds finished before it stopped are shown; the "
               "figures of an aborted run are not a complete measurement.")
                .arg(why.toHtmlEscaped()),
            Tone::Alert);
    } else if (!rec.tool && rec.samples.empty()) {
        banner_->setMessage(
            tr("Written by the reference harness: it keeps no raw samples, sampler figures or window "
               "times, so the rounds are shown as stored and cannot be recomputed."),
            Tone::Info);
    } else if (rec.samples.empty()) {
        banner_->setMessage(
            tr("This record was saved without its raw samples: no power trace, and its figures cannot "
               "be recomputed."),
            Tone::Neutral);
    } else {
        banner_->clearMessage();
    }
    const bool hasSamples = !rec.samples.empty();
    // Without samples there is no trace to draw: the rounds table gets the room.
    view_->chartPanel()->setVisible(hasSamples);
    for (QAction* a : export_->menu()->actions()) {
        const QString n = a->objectName();
        if (n == QStringLiteral("export%1").arg(int(SamplesCsv)) ||
            n == QStringLiteral("export%1").arg(int(PowerPng)) ||
            n == QStringLiteral("export%1").arg(int(PowerSvg)))
            a->setEnabled(hasSamples);
    }
    refreshCounter();
    // A record with phases opens on them: what its child marked is what its reader came for.
    if (showsPhases())
        side_->setCurrentWidget(phases_);
    stack_->setCurrentIndex(1);
}

void RecordTab::refreshCounter()
{
    if (!loaded_)
        return;
    const Record& rec = *loaded_->record;
    const std::string spec = view_->counter();

    // The phases: a tab while the record has some on this counter, none otherwise.
    phases_->setRecord(rec, spec);
    const int phaseTab = side_->indexOf(phases_);
    if (phases_->rowCount() > 0 && phaseTab < 0)
        side_->insertTab(1, phases_, tr("Phases"));
    else if (phases_->rowCount() == 0 && phaseTab >= 0)
        side_->removeTab(phaseTab);

    const auto energies = roundEnergies(rec, spec);
    RoundMarkSeries s;
    s.outline = palette::recordA();
    s.median = summaryOf(rec, spec).median_j_per_decode;
    for (const RoundEnergy& e : energies) {
        RoundMark m;
        m.round = e.round;
        m.value = e.j_per_decode;
        m.sd = e.sd_j_per_decode;
        m.verdict = e.verdict;
        QString tip =
            tr("Round %1: %2 J per decode").arg(e.round + 1).arg(fmt::significant(e.j_per_decode, 4));
        if (e.sd_j_per_decode)
            tip += tr(" ± %1 (one sd)").arg(fmt::significant(*e.sd_j_per_decode, 2));
        tip += QStringLiteral("\n") + verdictStyle(e.verdict).text;
        if (e.ratio)
            tip += tr(", ratio %1").arg(fmt::significant(*e.ratio, 3));
        const WindowResolution w = proxy_->resolutionAt(e.round);
        if (w.coarse)
            tip += QStringLiteral("\n") + q(w.text);
        m.tip = tip;
        s.marks.push_back(std::move(m));
    }
    if (spec.empty())
        roundChart_->clear(tr("No whole-device counter in this record."));
    else
        roundChart_->setSeries({s}, tr("%1: J per decode").arg(q(spec)));

    // A counter whose J per decode is relative only (a power reading integrated): say so, and
    // which of the record's counters to trust instead (core's words, as the CLI's `summary`).
    const CounterTrust trust = counterTrust(rec, spec);
    if (spec.empty() || trust.absolute)
        trust_->clearMessage();
    else
        trust_->setMessage(QStringLiteral("<b>%1</b> %2").arg(tr("J per decode relative only (%1):").arg(q(spec)).toHtmlEscaped(),
                                                            q(trust.text()).toHtmlEscaped()),
                           Tone::Warning);

    // Coarse counter: say it above the table, with the numbers (core's words, as the CLI's).
    const CoarseCounter cc = coarseCounter(rec, spec);
    if (!cc.coarse()) {
        coarse_->clearMessage();
        return;
    }
    coarse_->setMessage(QStringLiteral("<b>%1</b> %2").arg(q(cc.headline).toHtmlEscaped(), q(cc.detail).toHtmlEscaped()),
                        Tone::Warning);
}

QString RecordTab::bannerText() const
{
    return banner_->isHidden() ? QString() : fmt::plainText(banner_->text());
}

QString RecordTab::coarseText() const
{
    return coarse_->isHidden() ? QString() : fmt::plainText(coarse_->text());
}

QString RecordTab::trustText() const
{
    return trust_->isHidden() ? QString() : fmt::plainText(trust_->text());
}

QString RecordTab::headerText() const
{
    return fmt::plainText(header_->text());
}

QString RecordTab::exportTitle() const
{
    QString t = title();
    const std::string spec = view_->counter();
    if (!spec.empty())
        t += QStringLiteral(" (") + q(spec) + QLatin1Char(')');
    return t;
}

QString RecordTab::exportName(ExportKind kind)
{
    switch (kind) {
    case RoundsCsv:
        return tr("Rounds as CSV");
    case SamplesCsv:
        return tr("Samples as CSV");
    case PowerPng:
        return tr("Power chart as PNG");
    case PowerSvg:
        return tr("Power chart as SVG");
    case RoundsPng:
        return tr("J per decode chart as PNG");
    case RoundsSvg:
        return tr("J per decode chart as SVG");
    case RecordCopy:
        return tr("Copy of the record file");
    }
    return {};
}

QString RecordTab::exportFilter(ExportKind kind)
{
    switch (kind) {
    case RoundsCsv:
    case SamplesCsv:
        return tr("CSV files (*.csv)");
    case PowerPng:
    case RoundsPng:
        return tr("PNG images (*.png)");
    case PowerSvg:
    case RoundsSvg:
        return tr("SVG images (*.svg)");
    case RecordCopy:
        return tr("JouleBench records (*.json)");
    }
    return {};
}

QString RecordTab::suggestedExportPath(ExportKind kind) const
{
    QString base = path_;
    if (base.endsWith(QStringLiteral(".json")))
        base.chop(5);
    switch (kind) {
    case RoundsCsv:
        return base + QStringLiteral("-rounds.csv");
    case SamplesCsv:
        return base + QStringLiteral("-samples.csv");
    case PowerPng:
        return base + QStringLiteral("-power.png");
    case PowerSvg:
        return base + QStringLiteral("-power.svg");
    case RoundsPng:
        return base + QStringLiteral("-per-round.png");
    case RoundsSvg:
        return base + QStringLiteral("-per-round.svg");
    case RecordCopy:
        return base + QStringLiteral("-copy.json");
    }
    return base;
}

Status RecordTab::exportTo(ExportKind kind, const QString& path)
{
    switch (kind) {
    case RoundsCsv:
        return exportRoundsCsv(path);
    case SamplesCsv:
        return exportSamplesCsv(path);
    case PowerPng:
        return exportPowerChartPng(path);
    case PowerSvg:
        return exportPowerChartSvg(path);
    case RoundsPng:
        return exportRoundChartPng(path);
    case RoundsSvg:
        return exportRoundChartSvg(path);
    case RecordCopy:
        return saveCopy(path);
    }
    return Error{"unknown export"};
}

Status RecordTab::exportRoundsCsv(const QString& path) const
{
    if (!loaded_)
        return Error{"the record is still loading"};
    return writeTextFile(path, roundsCsv(*loaded_->record));
}

Status RecordTab::exportSamplesCsv(const QString& path) const
{
    if (!loaded_)
        return Error{"the record is still loading"};
    if (loaded_->record->samples.empty())
        return Error{"this record holds no raw samples to export"};
    return writeTextFile(path, samplesCsv(loaded_->record->samples));
}

Status RecordTab::exportPowerChartPng(const QString& path)
{
    if (!loaded_ || loaded_->record->samples.empty())
        return Error{"this record holds no raw samples: there is no power chart"};
    return view_->chart()->savePng(path, exportTitle());
}

Status RecordTab::exportPowerChartSvg(const QString& path)
{
    if (!loaded_ || loaded_->record->samples.empty())
        return Error{"this record holds no raw samples: there is no power chart"};
    return view_->chart()->saveSvg(path, exportTitle());
}

Status RecordTab::exportRoundChartPng(const QString& path) const
{
    if (!loaded_)
        return Error{"the record is still loading"};
    return roundChart_->savePng(path, exportTitle() + tr(": J per decode by round"));
}

Status RecordTab::exportRoundChartSvg(const QString& path) const
{
    if (!loaded_)
        return Error{"the record is still loading"};
    return roundChart_->saveSvg(path, exportTitle() + tr(": J per decode by round"));
}

Status RecordTab::saveCopy(const QString& path) const
{
    if (!loaded_ || !loaded_->bytes)
        return Error{"the record is still loading"};
    return writeTextFile(path, *loaded_->bytes);
}

}  // namespace jb

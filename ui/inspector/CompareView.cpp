#include "inspector/CompareView.h"

#include "common/Format.h"
#include "common/Palette.h"
#include "common/SummaryStrip.h"
#include "inspector/RoundChart.h"
#include <jb/stats/RoundEnergy.h>

#include <QComboBox>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QShowEvent>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

namespace jb {

namespace {

using fmt::q;

const QColor kColorA = palette::recordA();
const QColor kColorB = palette::recordB();

}  // namespace

CompareView::CompareView(QWidget* parent)
    : QWidget(parent),
      boxA_(new QComboBox(this)),
      boxB_(new QComboBox(this)),
      counterBox_(new QComboBox(this)),
      swap_(new QPushButton(tr("Swap A and B"), this)),
      headline_(new QLabel(this)),
      meaning_(new QLabel(this)),
      sideA_(new QLabel(this)),
      sideB_(new QLabel(this)),
      stripA_(new SummaryStrip(this)),
      stripB_(new SummaryStrip(this)),
      chart_(new RoundChart(this))
{
    boxA_->setObjectName(QStringLiteral("compareA"));
    boxB_->setObjectName(QStringLiteral("compareB"));
    counterBox_->setObjectName(QStringLiteral("compareCounter"));
    for (QComboBox* b : {boxA_, boxB_, counterBox_})
        b->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    counterBox_->setToolTip(tr("The whole-device counter both records have figures for"));

    auto* pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("A:"), this));
    pick->addWidget(boxA_);
    pick->addSpacing(8);
    pick->addWidget(new QLabel(tr("B:"), this));
    pick->addWidget(boxB_);
    pick->addWidget(swap_);
    pick->addSpacing(16);
    pick->addWidget(new QLabel(tr("Counter:"), this));
    pick->addWidget(counterBox_);
    pick->addStretch(1);

    headline_->setObjectName(QStringLiteral("compareHeadline"));
    headline_->setTextFormat(Qt::RichText);
    headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    headline_->setWordWrap(true);
    headline_->setToolTip(
        tr("Ratio of A's median J per decode to B's. The interval: 2.5 % and 97.5 % quantiles of "
           "that ratio over %1 bootstrap draws, each resampling A's rounds and B's rounds with "
           "replacement (as joulebench-cli compare).")
            .arg(kResamples));
    meaning_->setObjectName(QStringLiteral("compareMeaning"));
    meaning_->setWordWrap(true);

    auto side = [this](const QString& title, QLabel* text, SummaryStrip* strip, const QColor& c) {
        auto* box = new QGroupBox(title, this);
        box->setStyleSheet(QStringLiteral("QGroupBox { font-weight: bold; color: %1; }").arg(c.name()));
        auto* v = new QVBoxLayout(box);
        text->setTextFormat(Qt::RichText);
        text->setWordWrap(true);
        text->setTextInteractionFlags(Qt::TextSelectableByMouse);
        text->setStyleSheet(QStringLiteral("font-weight: normal; color: palette(text);"));
        strip->setStyleSheet(QStringLiteral("font-weight: normal; color: palette(text);"));
        v->addWidget(text);
        v->addWidget(strip);
        return box;
    };
    sideA_->setObjectName(QStringLiteral("compareSideA"));
    sideB_->setObjectName(QStringLiteral("compareSideB"));
    auto* sides = new QHBoxLayout;
    sides->addWidget(side(tr("A (circles)"), sideA_, stripA_, kColorA), 1);
    sides->addWidget(side(tr("B (squares)"), sideB_, stripB_, kColorB), 1);

    chart_->setToolTip(q(uncertaintyFormulaText()));

    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(8, 8, 8, 8);
    v->addLayout(pick);
    v->addWidget(headline_);
    v->addWidget(meaning_);
    v->addLayout(sides);
    v->addWidget(chart_, 1);

    auto changed = [this] {
        refillCounters();
        recompute();
    };
    connect(boxA_, &QComboBox::currentIndexChanged, this, changed);
    connect(boxB_, &QComboBox::currentIndexChanged, this, changed);
    connect(counterBox_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(swap_, &QPushButton::clicked, this, [this] { compare(indexB(), indexA(), counter()); });
    recompute();
}

int CompareView::indexA() const
{
    return boxA_->currentIndex();
}

int CompareView::indexB() const
{
    return boxB_->currentIndex();
}

std::string CompareView::counter() const
{
    return counterBox_->currentText().toStdString();
}

void CompareView::setCandidates(std::vector<CompareCandidate> c)
{
    const QString keepA = indexA() >= 0 && indexA() < candidateCount()
        ? candidates_[std::size_t(indexA())].path
        : QString();
    const QString keepB = indexB() >= 0 && indexB() < candidateCount()
        ? candidates_[std::size_t(indexB())].path
        : QString();
    const std::string keepCounter = counter();
    candidates_ = std::move(c);
    int a = -1, b = -1;
    for (int i = 0; i < candidateCount(); ++i) {
        if (candidates_[std::size_t(i)].path == keepA && a < 0)
            a = i;
        if (candidates_[std::size_t(i)].path == keepB && b < 0)
            b = i;
    }
    // New picks: the first two records (A the first, B the second).
    if (a < 0)
        a = candidateCount() > 0 ? 0 : -1;
    if (b < 0 || (b == a && candidateCount() > 1))
        b = candidateCount() > 1 ? (a == 1 ? 0 : 1) : a;
    {
        const QSignalBlocker ba(boxA_), bb(boxB_);
        boxA_->clear();
        boxB_->clear();
        for (const CompareCandidate& x : candidates_) {
            const QString text = x.title == QFileInfo(x.path).fileName() ||
                    x.title == QFileInfo(x.path).completeBaseName()
                ? QFileInfo(x.path).fileName()
                : QStringLiteral("%1 — %2").arg(x.title, QFileInfo(x.path).fileName());
            boxA_->addItem(text, x.path);
            boxB_->addItem(text, x.path);
            boxA_->setItemData(boxA_->count() - 1, x.path, Qt::ToolTipRole);
            boxB_->setItemData(boxB_->count() - 1, x.path, Qt::ToolTipRole);
        }
        boxA_->setCurrentIndex(a);
        boxB_->setCurrentIndex(b);
    }
    {
        const QSignalBlocker bc(counterBox_);
        refillCounters();
        const int i = counterBox_->findText(q(keepCounter));
        if (i >= 0)
            counterBox_->setCurrentIndex(i);
    }
    stale_ = true;
    comparison_.reset();
    if (isVisible())
        recompute();
}

void CompareView::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    if (stale_)
        recompute();
}

void CompareView::compare(int a, int b, const std::string& spec)
{
    {
        const QSignalBlocker ba(boxA_), bb(boxB_);
        boxA_->setCurrentIndex(a);
        boxB_->setCurrentIndex(b);
    }
    {
        const QSignalBlocker bc(counterBox_);
        refillCounters();
        if (!spec.empty()) {
            const int i = counterBox_->findText(q(spec));
            if (i >= 0)
                counterBox_->setCurrentIndex(i);
        }
    }
    recompute();
}

void CompareView::refillCounters()
{
    const QSignalBlocker bc(counterBox_);
    const QString keep = counterBox_->currentText();
    counterBox_->clear();
    const int a = indexA(), b = indexB();
    if (a < 0 || b < 0 || a >= candidateCount() || b >= candidateCount())
        return;
    const auto ca = candidates_[std::size_t(a)].record->wholeDeviceCounters();
    const auto cb = candidates_[std::size_t(b)].record->wholeDeviceCounters();
    for (const std::string& s : ca)
        if (std::find(cb.begin(), cb.end(), s) != cb.end())
            counterBox_->addItem(q(s));
    const int i = counterBox_->findText(keep);
    counterBox_->setCurrentIndex(i >= 0 ? i : 0);
}

QString CompareView::formatRatio(const Comparison& c)
{
    if (!c.ratio)
        return {};
    QString s = fmt::significant(*c.ratio, 4);
    if (c.ci_low && c.ci_high)
        s += QStringLiteral(" (95% CI %1 – %2)")
                 .arg(fmt::significant(*c.ci_low, 4), fmt::significant(*c.ci_high, 4));
    return s;
}

void CompareView::recompute()
{
    stale_ = false;
    comparison_.reset();
    const int a = indexA(), b = indexB();
    auto sideText = [](const CompareCandidate& x) {
        const Record& r = *x.record;
        QStringList lines;
        lines << QStringLiteral("<b>%1</b>").arg(x.title.toHtmlEscaped());
        lines << QStringLiteral("<span style=\"color:%1\">%2</span>")
                     .arg(palette::mutedText().name(), x.path.toHtmlEscaped());
        QString facts = tr("%1 rounds").arg(r.rounds.size());
        if (r.status)
            facts += QStringLiteral(" · ") +
                (r.isAborted() ? tr("<b style=\"color:%1\">aborted</b>").arg(palette::errorText().name())
                               : q(*r.status));
        if (!r.tool)
            facts += tr(" · reference harness");
        lines << facts;
        // The summary strip under it gives the median, the spread and the verdicts.
        return lines.join(QStringLiteral("<br>"));
    };
    if (a < 0 || b < 0 || a >= candidateCount() || b >= candidateCount() || candidateCount() < 2) {
        headline_->setText(tr("Open two records to compare them."));
        meaning_->clear();
        sideA_->clear();
        sideB_->clear();
        stripA_->clearSummary(QString());
        stripB_->clearSummary(QString());
        chart_->clear(tr("Open two records to compare them."));
        emit compared();
        return;
    }
    const CompareCandidate& A = candidates_[std::size_t(a)];
    const CompareCandidate& B = candidates_[std::size_t(b)];
    const std::string spec = counter();
    if (spec.empty()) {
        headline_->setText(tr("These records have no whole-device counter in common: nothing to compare."));
        meaning_->clear();
        sideA_->setText(sideText(A));
        sideB_->setText(sideText(B));
        stripA_->clearSummary(QString());
        stripB_->clearSummary(QString());
        chart_->clear(tr("No counter in common."));
        emit compared();
        return;
    }
    comparison_ = compareRecords(*A.record, *B.record, spec, kResamples, kSeed);
    const Comparison& c = *comparison_;
    if (c.ratio) {
        headline_->setText(
            tr("<span style=\"font-size:14pt\">A / B median J per decode: <b>%1</b></span>%2")
                .arg(fmt::significant(*c.ratio, 4))
                .arg(c.ci_low && c.ci_high
                         ? tr("&nbsp;&nbsp;(95% CI %1 – %2, bootstrap over rounds)")
                               .arg(fmt::significant(*c.ci_low, 4), fmt::significant(*c.ci_high, 4))
                         : QString()));
    } else {
        headline_->setText(tr("<b>No ratio:</b> %1").arg(q(c.problem).toHtmlEscaped()));
    }
    QString meaning;
    if (a == b)
        meaning = tr("A and B are the same record.");
    else if (c.ratio && c.ci_low && c.ci_high) {
        const double pct = (*c.ratio - 1.0) * 100.0;
        if (*c.ci_low > 1.0)
            meaning = tr("A takes %1 % more energy per decode than B; the interval lies above 1.")
                          .arg(fmt::significant(pct, 3));
        else if (*c.ci_high < 1.0)
            meaning = tr("A takes %1 % less energy per decode than B; the interval lies below 1.")
                          .arg(fmt::significant(-pct, 3));
        else
            meaning = tr("No clear difference: the interval includes 1.");
    } else if (c.ratio) {
        meaning = q(c.problem);
    }
    if (c.a.size() < 5 || c.b.size() < 5)
        meaning += (meaning.isEmpty() ? QString() : QStringLiteral(" ")) +
            tr("With fewer than 5 rounds on a side the bootstrap interval is rough.");
    meaning_->setText(meaning);
    sideA_->setText(sideText(A));
    sideB_->setText(sideText(B));
    stripA_->setSummary(q(spec), c.summary_a, int(A.record->rounds.size()));
    stripB_->setSummary(q(spec), c.summary_b, int(B.record->rounds.size()));

    auto series = [&](const CompareCandidate& x, const QString& name, const std::optional<double>& med,
                      const QColor& color, bool square, double offset) {
        RoundMarkSeries s;
        s.name = name;
        s.median = med;
        s.outline = color;
        s.square = square;
        s.x_offset = offset;
        for (const RoundEnergy& e : roundEnergies(*x.record, spec)) {
            RoundMark m;
            m.round = e.round;
            m.value = e.j_per_decode;
            m.sd = e.sd_j_per_decode;
            m.verdict = e.verdict;
            m.tip = tr("%1, round %2: %3 J per decode")
                        .arg(name)
                        .arg(e.round + 1)
                        .arg(fmt::significant(e.j_per_decode, 4));
            if (e.sd_j_per_decode)
                m.tip += tr(" ± %1").arg(fmt::significant(*e.sd_j_per_decode, 2));
            s.marks.push_back(std::move(m));
        }
        return s;
    };
    chart_->setSeries({series(A, tr("A"), c.median_a, kColorA, false, -0.12),
                       series(B, tr("B"), c.median_b, kColorB, true, 0.12)},
                      tr("%1: J per decode").arg(q(spec)));
    emit compared();
}

QString CompareView::ratioText() const
{
    return fmt::plainText(headline_->text());
}

QString CompareView::verdictText() const
{
    return meaning_->text();
}

QString CompareView::sideText(int which) const
{
    return fmt::plainText((which == 0 ? sideA_ : sideB_)->text()) + QLatin1Char('\n') +
        (which == 0 ? stripA_ : stripB_)->plainText();
}

}  // namespace jb

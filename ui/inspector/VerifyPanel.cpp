#include "inspector/VerifyPanel.h"

#include "common/Banner.h"
#include "inspector/DisagreementModel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

namespace jb {

namespace {
QString count(int n, const char* one, const char* many)
{
    return QString::number(n) + QLatin1Char(' ') + QLatin1String(n == 1 ? one : many);
}
}  // namespace

VerifyPanel::VerifyPanel(QWidget* parent)
    : QWidget(parent),
      summary_(new QLabel(this)),
      notes_(new QLabel(this)),
      table_(new QTableView(this)),
      model_(new DisagreementModel(this))
{
    summary_->setObjectName(QStringLiteral("verifySummary"));
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setAutoFillBackground(true);
    notes_->setObjectName(QStringLiteral("verifyNotes"));
    notes_->setWordWrap(true);
    notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    table_->setObjectName(QStringLiteral("disagreementTable"));
    table_->setModel(model_);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);

    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 6, 6, 6);
    v->addWidget(summary_);
    v->addWidget(notes_);
    v->addWidget(table_, 1);
    v->addStretch(0);  // keeps the lines at the top when there is no table
    summary_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    notes_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    setReport({});
    state_ = State::Empty;
}

QString VerifyPanel::headline(const VerifyReport& r)
{
    if (!r.verifiable)
        return r.why_not.empty()
            ? tr("Not checked yet.")
            : tr("This record cannot be verified: %1.").arg(QString::fromStdString(r.why_not));
    const QString scope = count(r.figures_checked, "figure", "figures") + QStringLiteral(" of ") +
        count(r.rounds_checked, "round", "rounds") +
        (r.counters_checked > r.rounds_checked ? tr(", %1 counter rounds").arg(r.counters_checked)
                                               : QString());
    if (r.disagreements.empty())
        return tr("Verified: every stored figure agrees with the figures recomputed from the raw samples (%1 checked).")
            .arg(scope);
    const int n = int(r.disagreements.size());
    return tr("%1 %2 with the raw samples (checked %3): the file's figures were not computed from these samples, "
              "or were changed since.")
        .arg(count(n, "stored figure", "stored figures"), n == 1 ? tr("disagrees") : tr("disagree"), scope);
}

void VerifyPanel::setReport(const VerifyReport& r)
{
    Tone tone = Tone::Neutral;
    if (!r.verifiable) {
        state_ = State::Unverifiable;
    } else if (r.disagreements.empty()) {
        state_ = State::Agrees;
        tone = Tone::Success;
    } else {
        state_ = State::Disagrees;
        tone = Tone::Error;
    }
    summary_->setStyleSheet(Banner::styleSheetFor(tone));
    summary_->setText(QStringLiteral("<b>%1</b>").arg(headline(r).toHtmlEscaped()));
    QStringList notes;
    for (const std::string& n : r.notes)
        notes << QStringLiteral("• ") + QString::fromStdString(n);
    notes_->setText(notes.join(QLatin1Char('\n')));
    notes_->setVisible(!notes.isEmpty());
    model_->setDisagreements(r.disagreements);
    table_->setVisible(!r.disagreements.empty());
    if (!r.disagreements.empty())
        table_->resizeColumnToContents(DisagreementModel::PathCol);
}

QString VerifyPanel::summaryText() const
{
    return QTextDocumentFragment::fromHtml(summary_->text()).toPlainText();
}

QString VerifyPanel::notesText() const
{
    return notes_->text();
}

}  // namespace jb

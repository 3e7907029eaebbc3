#include "library/LibraryPage.h"

#include "chart/TrendChart.h"
#include "library/LibraryModel.h"
#include <jb/library/Library.h>
#include <jb/library/LibraryReport.h>

#include <QAction>
#include <QComboBox>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPromise>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

namespace jb {

namespace {

// What the worker hands back: a value, or why there is none.
struct ListResult {
    std::vector<LibraryEntry> entries;
    QString where;      // the library, as the status line names it
    QString error;
    bool unopened = false;  // the library itself could not be opened
};

struct TrendResult {
    std::vector<TrendPoint> points;
    QString error;
};

}  // namespace

namespace {

QString number(const std::optional<double>& v)
{
    return v ? QString::number(*v, 'g', 4) : QStringLiteral("-");
}

// What the chart shows of one point of core's trend (no figure of its own).
TrendMark markOf(const TrendPoint& p, bool byCommit)
{
    TrendMark m;
    const QString key = QString::fromStdString(p.key);
    m.key = byCommit && p.commit ? key.left(8) : key.left(16).replace(QLatin1Char('T'), QLatin1Char(' '));
    m.median = p.j_per_decode.median;
    m.low = p.j_per_decode.low;
    m.high = p.j_per_decode.high;
    m.regression = p.regression;
    m.tip = QObject::tr("%1\n%2 J/decode [%3, %4] (95%)\n%5 record(s), %6 round(s)")
                .arg(key, number(p.j_per_decode.median), number(p.j_per_decode.low), number(p.j_per_decode.high))
                .arg(p.records)
                .arg(p.rounds);
    if (p.ratio_to_previous)
        m.tip += QObject::tr("\nx%1 vs the point before").arg(*p.ratio_to_previous, 0, 'f', 3);
    if (p.regression)
        m.tip += QObject::tr("\nregression: significantly above the point before");
    return m;
}

}  // namespace

LibraryPage::LibraryPage(std::string spec, QWidget* parent)
    : QWidget(parent)
    , spec_(std::move(spec))
    , model_(new LibraryModel(this))
    , view_(new QTableView(this))
    , filter_(new QLineEdit(this))
    , status_(new QLabel(this))
    , compareButton_(new QPushButton(tr("Compare"), this))
    , compareAction_(new QAction(tr("Compare the two selected"), this))
    , openAction_(new QAction(tr("Open in the Inspector"), this))
    , trendTitle_(new QLabel(this))
    , trendBy_(new QComboBox(this))
    , trend_(new TrendChart(this))
{
    worker_.setMaxThreadCount(1);
    view_->setModel(model_);  // it sorts itself
    view_->setSortingEnabled(true);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->setContextMenuPolicy(Qt::CustomContextMenu);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setStretchLastSection(true);
    // Each column as wide as its header and values (fitColumns, after every listing); the file's
    // path, last, takes the rest, cut in its middle where it is longer (its tooltip is whole).
    view_->setTextElideMode(Qt::ElideMiddle);
    view_->setWordWrap(false);
    view_->sortByColumn(LibraryModel::Started, Qt::DescendingOrder);
    filter_->setPlaceholderText(tr("Filter: label=gate meta.q=3 host=bench-1 since=2026-11-01"));
    filter_->setClearButtonEnabled(true);
    auto* reloadButton = new QPushButton(tr("Reload"), this);
    compareButton_->setObjectName(QStringLiteral("libraryCompare"));
    compareButton_->setToolTip(tr("Open the two selected records as a comparison in the Inspector"));
    compareButton_->setEnabled(false);
    compareAction_->setEnabled(false);
    auto* top = new QHBoxLayout;
    top->addWidget(filter_, 1);
    top->addWidget(reloadButton);
    top->addWidget(compareButton_);

    trendBy_->addItem(tr("by date"), QStringLiteral("date"));
    trendBy_->addItem(tr("by commit"), QStringLiteral("commit"));
    trendBy_->setToolTip(tr("One point per record, or the rounds of each commit pooled into one point"));
    auto* trendBox = new QWidget(this);
    auto* trendHead = new QHBoxLayout;
    trendHead->addWidget(trendTitle_, 1);
    trendHead->addWidget(trendBy_);
    auto* trendLayout = new QVBoxLayout(trendBox);
    trendLayout->setContentsMargins(0, 0, 0, 0);
    trendLayout->addLayout(trendHead);
    trendLayout->addWidget(trend_, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(view_);
    split->addWidget(trendBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    layout->addWidget(status_);
    connect(filter_, &QLineEdit::returnPressed, this, &LibraryPage::reload);
    connect(reloadButton, &QPushButton::clicked, this, &LibraryPage::reload);
    connect(compareButton_, &QPushButton::clicked, this, &LibraryPage::compareSelected);
    connect(compareAction_, &QAction::triggered, this, &LibraryPage::compareSelected);
    connect(openAction_, &QAction::triggered, this, [this] {
        if (const QStringList paths = selectedPaths(); !paths.isEmpty())
            emit openRecords(paths);
    });
    connect(view_, &QTableView::doubleClicked, this, [this](const QModelIndex& i) {
        emit openRecords({i.data(LibraryModel::PathRole).toString()});
    });
    connect(view_, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        QMenu menu(this);
        menu.addAction(openAction_);
        menu.addAction(compareAction_);
        menu.exec(view_->viewport()->mapToGlobal(at));
    });
    connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &LibraryPage::selectionChanged);
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    showTrend(current.data(LibraryModel::LabelRole).toString(),
                              current.data(LibraryModel::CounterRole).toString());
            });
    connect(trendBy_, &QComboBox::currentIndexChanged, this, &LibraryPage::refreshTrend);
    reload();
}

QString LibraryPage::status() const
{
    return status_->text();
}

QStringList LibraryPage::selectedPaths() const
{
    QModelIndexList rows = view_->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QStringList paths;
    for (const QModelIndex& i : rows)
        if (const QString p = i.data(LibraryModel::PathRole).toString(); !paths.contains(p))
            paths << p;
    return paths;
}

void LibraryPage::selectionChanged()
{
    const int n = int(selectedPaths().size());
    compareButton_->setEnabled(n == 2);
    compareAction_->setEnabled(n == 2);
    openAction_->setEnabled(n > 0);
}

void LibraryPage::compareSelected()
{
    const QStringList paths = selectedPaths();
    if (paths.size() != 2) {
        status_->setText(tr("Select two records to compare (%n selected)", nullptr, int(paths.size())));
        return;
    }
    QString counter;
    for (const QModelIndex& i : view_->selectionModel()->selectedRows())
        if (i.data(LibraryModel::PathRole).toString() == paths.front()) {
            counter = i.data(LibraryModel::CounterRole).toString();
            break;
        }
    emit compareRecords(paths.at(0), paths.at(1), counter);
}

template <typename R, typename Work, typename Done>
void LibraryPage::onWorker(Work work, Done done)
{
    auto promise = std::make_shared<QPromise<R>>();
    auto* watch = new QFutureWatcher<R>(this);  // goes with the page; a late result goes nowhere
    connect(watch, &QFutureWatcherBase::finished, this, [watch, done = std::move(done)]() mutable {
        QFuture<R> f = watch->future();
        watch->deleteLater();
        if (f.resultCount() > 0)
            done(f.takeResult());
    });
    watch->setFuture(promise->future());
    promise->start();
    worker_.start([promise, work = std::move(work)]() mutable {
        promise->addResult(work());
        promise->finish();
    });
}

bool LibraryPage::busy() const
{
    return listing_ || adding_ > 0 || trendPending_;
}

void LibraryPage::addFile(const QString& path)
{
    ++adding_;
    onWorker<QString>(
        [file = path.toStdString(), spec = spec_] {
            auto added = addToLibrary(file, spec);
            return added ? QString() : QString::fromStdString(added.error());
        },
        [this, path](const QString& error) {
            --adding_;
            emit fileAdded(path, error);
            if (!error.isEmpty())
                status_->setText(tr("Not added to the library: %1").arg(error));
            else if (isVisible())
                reload();  // queued behind the adds before it
            else
                stale_ = true;
        });
}

void LibraryPage::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    if (stale_)
        reload();
}

void LibraryPage::reload()
{
    stale_ = false;
    if (auto query = parseQuery(filter_->text().toStdString()); !query) {
        status_->setText(tr("Filter: %1").arg(QString::fromStdString(query.error())));
        return;
    }
    if (listing_)
        listAgain_ = true;  // run when the one under way ends, with the filter as it is then
    else
        startList();
}

void LibraryPage::startList()
{
    auto query = parseQuery(filter_->text().toStdString());
    if (!query) {
        status_->setText(tr("Filter: %1").arg(QString::fromStdString(query.error())));
        emit listed();
        return;
    }
    listing_ = true;
    onWorker<ListResult>(
        [spec = spec_, q = *query] {
            ListResult r;
            auto lib = Library::open(spec);
            if (!lib) {
                r.error = QString::fromStdString(lib.error());
                r.unopened = true;
                return r;
            }
            r.where = QString::fromStdString((*lib)->location().display);
            if (auto entries = (*lib)->list(q, false, false); !entries)
                r.error = QString::fromStdString(entries.error());
            else
                r.entries = std::move(*entries);
            return r;
        },
        [this](ListResult r) {
            listing_ = false;
            if (listAgain_) {
                listAgain_ = false;
                startList();
                return;
            }
            if (!r.error.isEmpty()) {
                status_->setText(r.error);
                if (r.unopened)
                    model_->setEntries({});
                emit listed();
                return;
            }
            const auto n = r.entries.size();
            model_->setEntries(std::move(r.entries));
            fitColumns();
            selectionChanged();
            status_->setText(tr("%n record(s) in %1", nullptr, int(n)).arg(r.where));
            emit listed();
            if (!trendLabel_.isEmpty())
                refreshTrend();
        });
}

void LibraryPage::showTrend(const QString& label, const QString& counter)
{
    if (label == trendLabel_ && counter == trendCounter_ && (trendPending_ || !trend_->marks().empty()))
        return;
    trendLabel_ = label;
    trendCounter_ = counter;
    refreshTrend();
}

bool LibraryPage::trendBusy() const
{
    return trendPending_;
}

void LibraryPage::refreshTrend()
{
    if (trendLabel_.isEmpty() || trendCounter_.isEmpty()) {
        trendAgain_ = trendPending_ = false;
        ++trendGeneration_;  // a result still to come is dropped
        trendTitle_->clear();
        trend_->clear(trendLabel_.isEmpty() && !trendCounter_.isEmpty()
                          ? tr("This record has no label: a trend is of one label")
                          : tr("Select a record to see its label's trend"));
        emit trendShown();
        return;
    }
    trendTitle_->setText(tr("Trend of %1 (%2), %3: computing").arg(trendLabel_, trendCounter_, trendBy_->currentText()));
    trendPending_ = true;
    if (trending_)
        trendAgain_ = true;  // started when the one under way ends; its result is dropped
    else
        startTrend();
}

void LibraryPage::startTrend()
{
    // The filter's terms, narrowed to the label and counter: the trend of what the table shows.
    auto query = parseQuery(filter_->text().toStdString());
    if (!query)
        query = LibraryQuery{};
    query->label = trendLabel_.toStdString();
    query->counter = trendCounter_.toStdString();
    const bool byCommit = trendBy_->currentData().toString() == QLatin1String("commit");
    trending_ = true;
    onWorker<TrendResult>(
        [spec = spec_, q = *query, byCommit] {
            TrendResult r;
            if (auto lib = Library::open(spec); !lib)
                r.error = QString::fromStdString(lib.error());
            else if (auto entries = (*lib)->list(q, true, false); !entries)
                r.error = QString::fromStdString(entries.error());
            else
                r.points = trendOf(*entries, *q.counter, byCommit);
            return r;
        },
        [this, generation = ++trendGeneration_, byCommit](const TrendResult& r) {
            trending_ = false;
            if (trendAgain_) {
                trendAgain_ = false;
                startTrend();
                return;
            }
            if (generation != trendGeneration_ || !trendPending_)
                return;  // cleared meanwhile
            trendPending_ = false;
            if (!r.error.isEmpty()) {
                trendTitle_->clear();
                trend_->clear(r.error);
                emit trendShown();
                return;
            }
            std::vector<TrendMark> marks;
            marks.reserve(r.points.size());
            int regressions = 0;
            for (const TrendPoint& p : r.points) {
                marks.push_back(markOf(p, byCommit));
                regressions += p.regression;
            }
            trend_->setTrend(std::move(marks));
            trendTitle_->setText(tr("Trend of %1 (%2), %3: %n point(s)", nullptr, int(r.points.size()))
                                     .arg(trendLabel_, trendCounter_, trendBy_->currentText()) +
                                 (regressions ? tr(", %n regression(s) marked", nullptr, regressions) : QString()));
            emit trendShown();
        });
}

void LibraryPage::fitColumns()
{
    // Every column but the last (the file, stretched) as wide as its header and values: at 1280
    // px the figures and verdicts read whole.
    for (int c = 0; c + 1 < model_->columnCount(); ++c)
        view_->resizeColumnToContents(c);
}

}  // namespace jb

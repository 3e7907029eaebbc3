#include "inspector/InspectorPage.h"

#include "common/Format.h"
#include "common/InterleavedView.h"
#include "common/PageTabs.h"
#include "common/RecordFiles.h"
#include "inspector/CompareView.h"
#include "inspector/RecordLoader.h"
#include "inspector/RecordTab.h"
#include <jb/record/Interleaved.h>

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QStackedWidget>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace jb {

InspectorPage::InspectorPage(QWidget* parent)
    : QWidget(parent),
      loader_(new RecordLoader(this)),
      stack_(new QStackedWidget(this)),
      tabs_(new PageTabs(this)),
      compare_(new CompareView(this)),
      status_(new QLabel(this)),
      compareButton_(new QToolButton(this)),
      compareHolder_(compare_)
{
    setAcceptDrops(true);
    showError = [this](const QString& title, const QString& message) {
        // Not modal: the other tabs stay usable, and several failures do not stack event loops.
        auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    };
    askSavePath = [this](const QString& caption, const QString& suggestion, const QString& filter) {
        return QFileDialog::getSaveFileName(this, caption, suggestion, filter);
    };
    askOpenPaths = [this] {
        return QFileDialog::getOpenFileNames(this, tr("Open Records"), autosaveFolder(),
                                             tr("JouleBench records (*.json);;All files (*)"));
    };

    auto* open = new QToolButton(this);
    open->setObjectName(QStringLiteral("openButton"));
    open->setText(tr("Open records…"));
    open->setToolTip(tr("Open one or more saved records, each in its own tab (or drop files here)"));
    open->setToolButtonStyle(Qt::ToolButtonTextOnly);
    connect(open, &QToolButton::clicked, this,
            [this] { openRecords(askOpenPaths ? askOpenPaths() : QStringList()); });
    compareButton_->setObjectName(QStringLiteral("compareButton"));
    compareButton_->setText(tr("Compare two…"));
    compareButton_->setToolTip(tr("The ratio of two records' median energy per decode, with a 95% interval"));
    compareButton_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    compareButton_->setEnabled(false);
    connect(compareButton_, &QToolButton::clicked, this, &InspectorPage::showCompare);
    addToLibrary_ = new QToolButton(this);
    addToLibrary_->setObjectName(QStringLiteral("addToLibraryButton"));
    addToLibrary_->setText(tr("Add to Library"));
    addToLibrary_->setToolTip(tr("Index the record shown in the Library page (records opened here are not added "
                                 "by themselves; the runs the dashboard saves are)"));
    addToLibrary_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    addToLibrary_->setEnabled(false);
    connect(addToLibrary_, &QToolButton::clicked, this, [this] {
        if (RecordTab* t = currentRecordTab()) {
            status_->setText(tr("Adding %1 to the library…").arg(QFileInfo(t->path()).fileName()));
            emit addToLibraryRequested(t->path());
        }
    });
    connect(this, &InspectorPage::currentRecordChanged, this,
            [this] { addToLibrary_->setEnabled(currentRecordTab() != nullptr); });
    status_->setObjectName(QStringLiteral("inspectorStatus"));
    status_->setStyleSheet(QStringLiteral("color: palette(dark);"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 0);
    bar->addWidget(open);
    bar->addWidget(compareButton_);
    bar->addWidget(addToLibrary_);
    bar->addSpacing(12);
    bar->addWidget(status_, 1);

    auto* empty = new QLabel(this);
    empty->setObjectName(QStringLiteral("inspectorEmpty"));
    empty->setAlignment(Qt::AlignCenter);
    empty->setWordWrap(true);
    empty->setText(tr(
        "<p style=\"font-size:13pt\">No record open.</p>"
        "<p>Open saved records (or an interleaved run's <code>comparison.json</code>) with <b>Open records…</b>, File › Open, by dropping files here, or "
        "from the command line (<code>joulebench A.json B.json</code>).</p>"
        "<p>Each opens in its own tab: its rounds, power trace, energy per decode by round, a check of "
        "every stored figure against the raw samples, and its metadata. With two open, compare them.</p>"));
    empty->setStyleSheet(QStringLiteral("color: palette(dark);"));

    tabs_->setObjectName(QStringLiteral("inspectorTabs"));
    tabs_->setDocumentMode(true);
    tabs_->setTabsClosable(true);
    tabs_->setMovable(true);
    tabs_->setElideMode(Qt::ElideMiddle);
    compareHolder_->setObjectName(QStringLiteral("compareTab"));
    compareHolder_->hide();
    connect(tabs_, &QTabWidget::tabCloseRequested, this, [this](int index) {
        QWidget* w = tabs_->widget(index);
        if (w == compareHolder_) {
            tabs_->removeTab(index);
            compareHolder_->hide();
            return;
        }
        if (auto* t = qobject_cast<RecordTab*>(w)) {
            tabs_->removeTab(index);
            t->deleteLater();
            refreshCompare();
            updateEmpty();
        } else if (auto* c = qobject_cast<InterleavedView*>(w)) {
            tabs_->removeTab(index);
            c->deleteLater();
            updateEmpty();
        }
    });
    connect(tabs_, &QTabWidget::currentChanged, this, [this] { emit currentRecordChanged(); });

    stack_->addWidget(empty);
    stack_->addWidget(tabs_);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(4);
    v->addLayout(bar);
    v->addWidget(stack_, 1);

    connect(loader_, &RecordLoader::progress, this, [this](int id, const QString&, const QString& stage) {
        if (RecordTab* t = loads_.value(id))
            t->setProgress(stage);
    });
    connect(loader_, &RecordLoader::loaded, this, &InspectorPage::onLoaded);
    connect(loader_, &RecordLoader::failed, this, &InspectorPage::onFailed);
    updateEmpty();
}

InspectorPage::~InspectorPage() = default;

int InspectorPage::tabCount() const
{
    int n = 0;
    for (int i = 0; i < tabs_->count(); ++i)
        n += qobject_cast<RecordTab*>(tabs_->widget(i)) != nullptr;
    return n;
}

RecordTab* InspectorPage::recordTab(int i) const
{
    for (int k = 0; k < tabs_->count(); ++k)
        if (auto* t = qobject_cast<RecordTab*>(tabs_->widget(k)); t && i-- == 0)
            return t;
    return nullptr;
}

RecordTab* InspectorPage::currentRecordTab() const
{
    return qobject_cast<RecordTab*>(tabs_->currentWidget());
}

int InspectorPage::indexOfPath(const QString& path) const
{
    const QString abs = QFileInfo(path).absoluteFilePath();
    for (int i = 0; i < tabCount(); ++i)
        if (recordTab(i)->path() == abs)
            return i;
    return -1;
}

void InspectorPage::setCurrentRecordTab(int i)
{
    if (RecordTab* t = recordTab(i))
        tabs_->setCurrentWidget(t);
}

void InspectorPage::closeRecordTab(int i)
{
    if (RecordTab* t = recordTab(i))
        emit tabs_->tabCloseRequested(tabs_->indexOf(t));
}

bool InspectorPage::isLoading() const
{
    return loader_->pending() > 0;
}

bool InspectorPage::compareVisible() const
{
    return tabs_->indexOf(compareHolder_) >= 0;
}

void InspectorPage::libraryAdded(const QString& path, const QString& error)
{
    status_->setText(error.isEmpty() ? tr("Added %1 to the library").arg(path)
                                     : tr("Not added to the library: %1").arg(error));
}

void InspectorPage::showCompare()
{
    refreshCompare();
    if (compare_->candidateCount() < 2)
        return;
    if (!pairPicked_) {
        // The candidates are the loaded record tabs, in tab order.
        QStringList loaded;
        for (int i = 0; i < tabCount(); ++i)
            if (recordTab(i)->isLoaded())
                loaded << recordTab(i)->path();
        int newer = -1, older = -1;
        for (auto it = openOrder_.crbegin(); it != openOrder_.crend() && older < 0; ++it) {
            const int at = int(loaded.indexOf(*it));
            if (at < 0)
                continue;
            (newer < 0 ? newer : older) = at;
        }
        if (older >= 0)
            compare_->compare(older, newer);
        pairPicked_ = true;
    }
    if (!compareVisible())
        tabs_->addTab(compareHolder_, tr("Compare"));
    tabs_->setCurrentWidget(compareHolder_);
}

void InspectorPage::openRecords(const QStringList& paths)
{
    for (const QString& p : paths)
        if (!p.isEmpty())
            openRecord(p);
}

int InspectorPage::comparisonCount() const
{
    int n = 0;
    for (int i = 0; i < tabs_->count(); ++i)
        n += qobject_cast<InterleavedView*>(tabs_->widget(i)) != nullptr;
    return n;
}

InterleavedView* InspectorPage::comparisonView(int i) const
{
    for (int k = 0; k < tabs_->count(); ++k)
        if (auto* c = qobject_cast<InterleavedView*>(tabs_->widget(k)); c && i-- == 0)
            return c;
    return nullptr;
}

void InspectorPage::openComparison(const QString& path)
{
    const QString abs = QFileInfo(path).absoluteFilePath();
    for (int i = 0; i < comparisonCount(); ++i)
        if (comparisonView(i)->path() == abs) {
            tabs_->setCurrentWidget(comparisonView(i));
            return;
        }
    auto c = loadComparisonFile(abs.toStdString());
    if (!c) {
        const QString message = QString::fromStdString(c.error());
        status_->setText(tr("Could not open %1").arg(QFileInfo(abs).fileName()));
        emit openFailed(abs, message);
        if (showError)
            showError(tr("Cannot open the comparison"), message);
        return;
    }
    // Its children's records first, each in its tab; a missing one is named, the others open.
    QStringList missing;
    for (const ComparisonChild& ch : c->children) {
        const QString name = QString::fromStdString(ch.name);
        if (!ch.record) {
            missing << tr("%1: the comparison names no record file for it (it was not written)").arg(name);
            continue;
        }
        const QString file = QString::fromStdString(comparisonChildPath(abs.toStdString(), *ch.record));
        if (!QFileInfo(file).isFile()) {
            missing << tr("%1: its record %2 is missing").arg(name, file);
            emit openFailed(file, missing.back());
            continue;
        }
        openRecord(file);
    }
    auto* view = new InterleavedView(abs, std::move(c).value(), this);
    view->setMissing(missing);
    const int at = compareVisible() ? tabs_->indexOf(compareHolder_) : tabs_->count();
    const QString folder = QFileInfo(abs).dir().dirName();
    tabs_->insertTab(at, view, tr("Comparison: %1").arg(folder));
    tabs_->setTabToolTip(at, abs);
    tabs_->setCurrentWidget(view);
    updateEmpty();
    emit recordOpened(abs);
    if (!missing.isEmpty() && showError)
        showError(tr("Some records of the comparison are missing"),
                  tr("%1 opened without them:\n%2").arg(QFileInfo(abs).fileName(), missing.join(QLatin1Char('\n'))));
}

void InspectorPage::openRecord(const QString& path)
{
    const QString abs = QFileInfo(path).absoluteFilePath();
    if (looksLikeComparisonFile(abs.toStdString())) {
        openComparison(abs);
        return;
    }
    openOrder_.removeAll(abs);
    openOrder_ << abs;
    pairPicked_ = false;
    if (const int i = indexOfPath(abs); i >= 0) {
        setCurrentRecordTab(i);
        if (recordTab(i)->isLoaded())
            emit recordOpened(abs);
        return;
    }
    auto* tab = new RecordTab(abs, this);
    connect(tab, &RecordTab::exportRequested, this,
            [this, tab](RecordTab::ExportKind k) { exportFrom(tab, k); });
    // Record tabs go before the Compare tab, which stays last.
    const int at = compareVisible() ? tabs_->indexOf(compareHolder_) : tabs_->count();
    tabs_->insertTab(at, tab, QString());
    updateTabText(tab);
    tabs_->setCurrentWidget(tab);
    const bool wasLoading = isLoading();
    loads_.insert(loader_->load(abs), tab);
    status_->setText(tr("Opening %1…").arg(QFileInfo(abs).fileName()));
    updateEmpty();
    if (!wasLoading)
        emit loadingChanged(true);
}

void InspectorPage::updateTabText(RecordTab* tab)
{
    const int i = tabs_->indexOf(tab);
    if (i < 0)
        return;
    QString text = tab->fileName();
    QString tip = tab->path();
    if (!tab->isLoaded()) {
        text += tr(" (opening)");
    } else if (const Record* r = tab->record()) {
        if (r->label)
            tip = QString::fromStdString(*r->label) + QLatin1Char('\n') + tip;
        if (r->isAborted()) {
            tabs_->setTabIcon(i, style()->standardIcon(QStyle::SP_MessageBoxWarning));
            tip += tr("\nAborted run");
        }
    }
    tabs_->setTabText(i, text);
    tabs_->setTabToolTip(i, tip);
}

void InspectorPage::onLoaded(int id, const std::shared_ptr<const LoadedRecord>& r)
{
    RecordTab* tab = loads_.take(id);
    if (tab) {
        tab->setLoaded(r);
        updateTabText(tab);
        QString took =
            tr("Opened %1 in %2").arg(tab->fileName(), fmt::duration((r->read_ms + r->verify_ms) / 1000.0));
        if (!r->record->samples.empty())
            took += tr(" (reading %1, recomputing its figures from the samples %2)")
                        .arg(fmt::duration(r->read_ms / 1000.0), fmt::duration(r->verify_ms / 1000.0));
        status_->setText(took);
        refreshCompare();
        emit recordOpened(r->path);
    }
    if (!isLoading())
        emit loadingChanged(false);
}

void InspectorPage::onFailed(int id, const QString& path, const QString& message)
{
    if (RecordTab* tab = loads_.take(id)) {
        const int i = tabs_->indexOf(tab);
        if (i >= 0)
            tabs_->removeTab(i);
        tab->deleteLater();
    }
    status_->setText(tr("Could not open %1").arg(QFileInfo(path).fileName()));
    updateEmpty();
    emit openFailed(path, message);
    if (showError)
        showError(tr("Cannot open the record"), message);
    if (!isLoading())
        emit loadingChanged(false);
}

void InspectorPage::exportCurrent(int kind)
{
    exportFrom(currentRecordTab(), kind);
}

void InspectorPage::exportFrom(RecordTab* tab, int kind)
{
    if (!tab || !tab->isLoaded() || !askSavePath)
        return;
    const auto k = RecordTab::ExportKind(kind);
    const QString path = askSavePath(tr("Export %1").arg(RecordTab::exportName(k)),
                                     tab->suggestedExportPath(k), RecordTab::exportFilter(k));
    if (path.isEmpty())
        return;
    if (const Status st = tab->exportTo(k, path); !st) {
        if (showError)
            showError(tr("Cannot export"), QString::fromStdString(st.error()));
        return;
    }
    status_->setText(tr("Saved %1").arg(path));
}

void InspectorPage::refreshCompare()
{
    std::vector<CompareCandidate> c;
    for (int i = 0; i < tabCount(); ++i) {
        RecordTab* t = recordTab(i);
        if (t->isLoaded())
            c.push_back({t->path(), t->title(), t->loaded()->record});
    }
    const bool enough = c.size() >= 2;
    compare_->setCandidates(std::move(c));
    compareButton_->setEnabled(enough);
    if (!enough && compareVisible()) {
        tabs_->removeTab(tabs_->indexOf(compareHolder_));
        compareHolder_->hide();
    }
}

void InspectorPage::updateEmpty()
{
    stack_->setCurrentIndex(tabCount() + comparisonCount() > 0 ? 1 : 0);
}

void InspectorPage::dragEnterEvent(QDragEnterEvent* e)
{
    if (e->mimeData()->hasUrls())
        for (const QUrl& u : e->mimeData()->urls())
            if (u.isLocalFile()) {
                e->acceptProposedAction();
                return;
            }
}

void InspectorPage::dropEvent(QDropEvent* e)
{
    QStringList paths;
    for (const QUrl& u : e->mimeData()->urls())
        if (u.isLocalFile())
            paths << u.toLocalFile();
    openRecords(paths);
    e->acceptProposedAction();
}

}  // namespace jb

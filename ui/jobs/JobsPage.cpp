#include "jobs/JobsPage.h"

#include "jobs/ElapsedDelegate.h"
#include "jobs/JobLiveChart.h"
#include "jobs/JobLogView.h"
#include "jobs/JobTableModel.h"
#include "jobs/ManifestDialog.h"

#include "common/Banner.h"
#include "common/Format.h"
#include "common/Palette.h"
#include <jb/remote/RemoteSource.h>
#include <jb/remote/RemoteTarget.h>

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>

#include <cmath>
#include <utility>

namespace jb {

namespace {

using fmt::q;

const char* kLastFileKey = "jobs/lastJobFile";

}  // namespace

JobsPage::JobsPage(QWidget* parent)
    : QWidget(parent),
      model_(new JobTableModel(this)),
      table_(new QTableView(this)),
      chart_(new JobLiveChart(this)),
      log_(new JobLogView(this)),
      fileLabel_(new QLabel(this)),
      banner_(new jb::Banner(this)),
      status_(new QLabel(this)),
      shownLabel_(new QLabel(this))
{
    auto button = [this](const QString& text, QStyle::StandardPixmap icon, const QString& tip) {
        auto* b = new QPushButton(style()->standardIcon(icon), text, this);
        b->setToolTip(tip);
        return b;
    };
    open_ = button(tr("Open Job File…"), QStyle::SP_DialogOpenButton,
                   tr("A job file (JSON, docs/JOBS.md): its jobs and their state on disk"));
    refresh_ = button(tr("Refresh"), QStyle::SP_BrowserReload,
                      tr("Read the job file again and look at its run folders on disk"));
    dryRun_ = button(tr("Dry Run"), QStyle::SP_FileDialogContentsView,
                     tr("Check the source, each job's program and files, the GPUs and NVML, and show each "
                        "command as it would run; starts and creates nothing"));
    runAll_ = button(tr("Run All"), QStyle::SP_MediaPlay,
                     tr("Run every job without a run folder, one per GPU at a time. Jobs with a manifest "
                        "are kept (preserved); orphaned folders are left for an audit."));
    cancelJob_ = button(tr("Cancel Job"), QStyle::SP_DialogCancelButton,
                        tr("End the selected job (SIGTERM, SIGKILL after its grace period); its manifest "
                           "says cancelled and the queue goes on with the other jobs"));
    stop_ = button(tr("Stop Queue"), QStyle::SP_MediaStop,
                   tr("End every running job (manifests say cancelled); jobs not started stay not run"));
    manifestButton_ = button(tr("Manifest…"), QStyle::SP_FileIcon, tr("Show the selected job's manifest"));
    folderButton_ = button(tr("Run Folder"), QStyle::SP_DirOpenIcon,
                           tr("Open the selected job's run folder in the file manager"));
    // Named for tests (findChild) and style sheets.
    open_->setObjectName(QStringLiteral("openJobFile"));
    refresh_->setObjectName(QStringLiteral("refresh"));
    runAll_->setObjectName(QStringLiteral("runAll"));
    dryRun_->setObjectName(QStringLiteral("dryRun"));
    cancelJob_->setObjectName(QStringLiteral("cancelJob"));
    stop_->setObjectName(QStringLiteral("stopQueue"));
    manifestButton_->setObjectName(QStringLiteral("openManifest"));
    folderButton_->setObjectName(QStringLiteral("openRunFolder"));

    auto* tools = new QHBoxLayout;
    tools->addWidget(open_);
    tools->addWidget(refresh_);
    tools->addSpacing(16);
    tools->addWidget(dryRun_);
    tools->addWidget(runAll_);
    tools->addSpacing(16);
    tools->addWidget(cancelJob_);
    tools->addWidget(stop_);
    tools->addSpacing(16);
    tools->addWidget(manifestButton_);
    tools->addWidget(folderButton_);
    disconnect_ = new QPushButton(tr("Disconnect"), this);
    disconnect_->setObjectName(QStringLiteral("disconnectRemote"));
    disconnect_->setToolTip(tr("Stop watching the served queue; it goes on on its machine"));
    disconnect_->hide();
    connect(disconnect_, &QPushButton::clicked, this, &JobsPage::disconnectRemote);
    tools->addWidget(disconnect_);
    tools->addStretch(1);

    fileLabel_->setTextFormat(Qt::RichText);
    fileLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    fileLabel_->setWordWrap(true);
    banner_->setObjectName(QStringLiteral("banner"));
    banner_->setTextFormat(Qt::PlainText);
    status_->setTextFormat(Qt::PlainText);
    status_->setObjectName(QStringLiteral("statusLine"));
    shownLabel_->setTextFormat(Qt::RichText);
    shownLabel_->setObjectName(QStringLiteral("shownJob"));

    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->setWordWrap(false);
    table_->setItemDelegateForColumn(
        JobTableModel::Elapsed,
        new ElapsedDelegate(JobTableModel::ProgressRole, JobTableModel::BarColorRole, table_));
    QHeaderView* h = table_->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    h->setSectionResizeMode(JobTableModel::Folder, QHeaderView::Stretch);
    h->setMinimumSectionSize(60);
    table_->setTextElideMode(Qt::ElideMiddle);  // folders: keep the driver_<time> end visible

    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(chart_);
    bottom->addWidget(log_);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    bottom->setSizes({840, 560});
    bottom->setChildrenCollapsible(false);
    auto* lower = new QWidget(this);
    auto* lv = new QVBoxLayout(lower);
    lv->setContentsMargins(0, 4, 0, 0);
    lv->setSpacing(2);
    lv->addWidget(shownLabel_);
    lv->addWidget(bottom, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(table_);
    split->addWidget(lower);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setChildrenCollapsible(false);

    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 6, 6, 4);
    v->addLayout(tools);
    v->addWidget(fileLabel_);
    v->addWidget(banner_);
    v->addWidget(split, 1);
    v->addWidget(status_);

    confirm = [this](const QString& title, const QString& question) {
        return QMessageBox::question(this, title, question, QMessageBox::Yes | QMessageBox::No,
                                     QMessageBox::No) == QMessageBox::Yes;
    };

    connect(open_, &QPushButton::clicked, this, [this] {
        QString start = path_.isEmpty() ? QSettings().value(QLatin1String(kLastFileKey)).toString() : path_;
        start = start.isEmpty() ? QDir::homePath() : QFileInfo(start).absolutePath();
        const QString p = QFileDialog::getOpenFileName(this, tr("Open Job File"), start,
                                                       tr("Job files (*.json);;All files (*)"));
        if (!p.isEmpty())
            loadJobFile(p);
    });
    connect(refresh_, &QPushButton::clicked, this, &JobsPage::refresh);
    connect(dryRun_, &QPushButton::clicked, this, &JobsPage::dryRun);
    connect(runAll_, &QPushButton::clicked, this, &JobsPage::runAll);
    connect(cancelJob_, &QPushButton::clicked, this, [this] {
        const int row = selectedRow();
        if (row < 0)
            return;
        const JobRow& r = model_->job(row);
        const QString elapsed = r.elapsed_s ? fmt::clock(*r.elapsed_s) : QStringLiteral("0:00");
        if (confirm &&
            !confirm(tr("Cancel %1").arg(r.name),
                     tr("End %1 after %2? Its manifest will say cancelled, and it will not run again "
                        "until its folder is deleted. The queue goes on with the other jobs.")
                         .arg(r.name, elapsed)))
            return;
        cancelJob(r.name);
    });
    connect(stop_, &QPushButton::clicked, this, [this] {
        if (confirm &&
            !confirm(tr("Stop the queue"),
                     tr("End every running job (their manifests will say cancelled) and start no "
                        "more? Jobs not started stay not run.")))
            return;
        stopQueue();
    });
    connect(manifestButton_, &QPushButton::clicked, this, [this] {
        if (const int row = selectedRow(); row >= 0)
            openManifest(model_->job(row).name);
    });
    connect(folderButton_, &QPushButton::clicked, this, &JobsPage::openRunFolder);
    connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& i) {
        if (i.isValid() && !model_->job(i.row()).manifest_path.isEmpty())
            openManifest(model_->job(i.row()).name);
    });
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &JobsPage::onSelectionChanged);
    // Row states change the buttons (a selected job starts or ends).
    connect(model_, &QAbstractItemModel::dataChanged, this, &JobsPage::updateActions);
    connect(model_, &QAbstractItemModel::modelReset, this, &JobsPage::updateActions);

    setBanner(Banner::Info,
              tr("Open a job file (JSON, see docs/JOBS.md) to see its jobs and what is on disk "
                 "for them."));
    chart_->clear(tr("No job file loaded."));
    updateFileLabel();
    updateActions();
}

JobsPage::~JobsPage()
{
    // First, while this page (connected to the queue's signals) still exists: a queue still
    // running ends its jobs and writes their manifests.
    run_.reset();
}

// ---- loading ----------------------------------------------------------------------------

bool JobsPage::loadJobFile(const QString& path)
{
    if (running()) {
        setBanner(Banner::Warning, tr("A queue is running: stop it before loading a job file."));
        return false;
    }
    dryBlocked_ = false;  // the file may have been fixed: the next dry run says
    const QString abs = QFileInfo(path).absoluteFilePath();
    const bool sameFile = abs == path_;
    path_ = abs;
    if (!sameFile) {
        traces_.clear();
        log_->clearAll();
        shown_.clear();
    }
    auto f = readJobFile(abs.toStdString());
    if (!f) {
        file_.reset();
        model_->clear();
        chart_->clear(tr("No jobs: the job file could not be loaded."));
        log_->showJob(QString(), QString());
        setBanner(Banner::Error,
                  tr("Cannot load the job file. %1\nFix it and press Refresh.").arg(q(f.error())));
        status_->clear();
        updateFileLabel();
        updateActions();
        return false;
    }
    file_ = std::move(*f);
    QSettings().setValue(QLatin1String(kLastFileKey), abs);
    const QString keep = shown_;
    model_->setJobs(file_->jobs);
    model_->refreshFromDisk(file_->output_root);
    updateFileLabel();
    diskBanner();
    status_->setText(model_->summaryText());
    if (!keep.isEmpty() && model_->rowOf(keep) >= 0)
        selectJob(keep, false);
    else
        showSelectedJob();
    updateActions();
    Q_EMIT jobFileLoaded(abs);
    return true;
}

bool JobsPage::refresh()
{
    if (path_.isEmpty() || running())
        return false;
    return loadJobFile(path_);
}

void JobsPage::diskBanner()
{
    int orphaned = 0, conflicts = 0, elsewhere = 0;
    for (int i = 0; i < model_->jobCount(); ++i) {
        switch (model_->job(i).state) {
        case RowState::Orphaned:
            ++orphaned;
            break;
        case RowState::Conflict:
            ++conflicts;
            break;
        case RowState::RunningElsewhere:
            ++elsewhere;
            break;
        default:
            break;
        }
    }
    QStringList parts;
    if (orphaned)
        parts << tr("%n job(s) have a run folder without a manifest (orphaned: a driver stopped before "
                    "the job ended); they are left untouched for an audit.",
                    nullptr, orphaned);
    if (conflicts)
        parts << tr("%n job(s) have several or unreadable manifests (conflict).", nullptr, conflicts);
    if (elsewhere)
        parts << tr("%n job(s) are run by another live driver.", nullptr, elsewhere);
    if (parts.isEmpty()) {
        setBanner(Banner::None, QString());
        return;
    }
    parts << tr("The queue skips them; hover over a status for the details.");
    setBanner(Banner::Warning, parts.join(QLatin1Char(' ')));
}

void JobsPage::updateFileLabel()
{
    if (path_.isEmpty()) {
        fileLabel_->setText(tr("<i>No job file loaded.</i>"));
        return;
    }
    const QString name = QFileInfo(path_).fileName().toHtmlEscaped();
    if (!file_) {
        fileLabel_->setText(tr("<b>%1</b> &nbsp;<span style='color:%3'>(not loaded)</span> &nbsp;%2")
                                .arg(name, path_.toHtmlEscaped(), palette::errorText().name()));
        return;
    }
    QStringList gpus;
    for (int g : file_->allowed_gpus)
        gpus << QString::number(g);
    fileLabel_->setText(
        tr("<b>%1</b> &nbsp;·&nbsp; %n job(s) &nbsp;·&nbsp; GPUs %2 &nbsp;·&nbsp; runs under "
           "<code>%3</code>",
           nullptr, int(file_->jobs.size()))
            .arg(name, gpus.join(QStringLiteral(", ")), q(file_->output_root).toHtmlEscaped()));
    fileLabel_->setToolTip(path_);
}

void JobsPage::setBanner(Banner level, const QString& text)
{
    bannerLevel_ = text.isEmpty() ? Banner::None : level;
    Tone tone = Tone::Info;
    if (bannerLevel_ == Banner::Error)
        tone = Tone::Error;
    else if (bannerLevel_ == Banner::Warning)
        tone = Tone::Warning;
    if (bannerLevel_ == Banner::None)
        banner_->clearMessage();
    else
        banner_->setMessage(text, tone);
}

QString JobsPage::errorText() const
{
    return bannerLevel_ == Banner::Error ? banner_->text() : QString();
}

QString JobsPage::bannerText() const
{
    return bannerLevel_ == Banner::None ? QString() : banner_->text();
}

QString JobsPage::statusText() const
{
    return status_->text();
}

// ---- running ----------------------------------------------------------------------------

bool JobsPage::running() const
{
    return run_ && !run_->finished();
}

bool JobsPage::runAll()
{
    return startQueue(false);
}

bool JobsPage::dryRun()
{
    if (!startQueue(true))
        return false;
    // What can be known before anything runs (the file was just read again): each command with
    // its placeholders filled, its program and script present, the GPUs and NVML reachable.
    const DryRunReport report = dryRunCheck(*file_, dryEnv_);
    model_->setDryRun(report);
    table_->resizeColumnToContents(JobTableModel::Command);
    dryBlocked_ = report.blocking();
    const QString notes = QString::fromStdString(report.notesText());
    if (dryBlocked_)
        setBanner(Banner::Error,
                  tr("The dry run found %n problem(s) that would stop the jobs; Run All stays off until they "
                     "are fixed (run the dry run again):\n%1",
                     nullptr, report.problemCount())
                      .arg(QString::fromStdString(report.text())) +
                      (notes.isEmpty() ? QString() : QLatin1Char('\n') + notes));
    else if (!notes.isEmpty())
        setBanner(Banner::Warning, tr("Dry run: %1").arg(notes));
    updateActions();
    return true;
}

JobRunOptions JobsPage::runOptions(bool dry) const
{
    JobRunOptions o;
    o.dry_run = dry;
    o.counters = counters_;
    // The nodes run joulebench-cli (installed beside this program unless the file says where).
    o.joulebench_cli = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("joulebench-cli")).toStdString();
    o.library = library_;
    return o;
}

bool JobsPage::startQueue(bool dry)
{
    if (running())
        return false;
    if (path_.isEmpty()) {
        setBanner(Banner::Info, tr("Open a job file first."));
        return false;
    }
    // What runs is what the file and the disk say now, not what they said when it was loaded.
    if (!loadJobFile(path_))
        return false;
    run_.reset();
    dry_ = dry;
    run_ = std::make_unique<JobRun>(*file_, runOptions(dry), factory_ ? factory_(*file_) : nullptr);
    connect(run_.get(), &JobRun::libraryAdded, this, &JobsPage::libraryAdded);
    connectQueue();
    follow_ = true;
    updateShownLabel();
    if (dry) {
        setBanner(
            Banner::Info,
            tr("Dry run: checking the source and listing what would run; nothing is started or created."));
    } else {
        model_->markQueued();
        diskBanner();  // orphaned folders stay worth a look while the others run
    }
    status_->setText(dry ? tr("Dry run…") : tr("Starting the queue: provenance and GPUs first…"));
    run_->start();
    updateActions();
    Q_EMIT runningChanged(true);
    return true;
}

void JobsPage::connectQueue()
{
    JobQueue* q = &run_->queue();
    connect(q, &JobQueue::jobPreserved, this, [this](const QString& n, const QString& path, JobStatus) {
        model_->markPreserved(n, path);
    });
    connect(q, &JobQueue::jobSkipped, model_, &JobTableModel::markSkipped);
    connect(q, &JobQueue::jobWouldRun, model_, &JobTableModel::markWouldRun);
    // Handed its GPU (before its idle bracket): a fresh trace, shown if the page follows.
    connect(q, &JobQueue::jobLaunched, this, [this](const QString& name, int gpu, const QString& runDir) {
        model_->markStarting(name, gpu, runDir);
        traces_.launched(name);
        if (follow_)
            selectJob(name, true);
        else if (name == shown_)
            showChartFor(name);
    });
    connect(q, &JobQueue::jobSample, this, [this](const QString& name, const JobProgress& p) {
        if (traces_.sampled(name, p) && name == shown_)
            chart_->traceChanged();
    });
    connect(q, &JobQueue::jobStarted, this,
            [this](const QString& n, int gpu, const QString& dir, qint64 pid) {
                model_->markStarted(n, gpu, dir, pid);
                if (n == shown_)
                    showChartFor(n);
                status_->setText(model_->summaryText());
            });
    connect(q, &JobQueue::jobProgress, model_, &JobTableModel::setProgress);
    connect(q, &JobQueue::jobRemoteState, this,
            [this](const QString& n, const QString& state, const QString& reason, const QString& id,
                   const QString& node) {
                model_->markRemote(n, state, reason, id, node);
                status_->setText(model_->summaryText());
            });
    connect(q, &JobQueue::jobFinished, this,
            [this](const QString& n, const JobManifest& m, const QString& path) {
                model_->markFinished(n, m, path);
                emit manifestWritten(path);
                if (n == shown_)
                    showChartFor(n);
                status_->setText(model_->summaryText());
            });
    connect(q, &JobQueue::jobFailed, this, [this](const QString& n, const QString& message) {
        model_->markFailed(n, message);
        setBanner(Banner::Warning, tr("%1: %2").arg(n, message));
    });
    connect(
        q, &JobQueue::logLine, this, [this](const QString& n, const QString& stream, const QString& line) {
            if (n.isEmpty())
                status_->setText(line);  // the queue's own lines ("cancelled: ending 1 running job(s) ...")
            else
                log_->append(n, stream, line);
        });
    connect(q, &JobQueue::queueFailed, this, [this](const QString& message) {
        setBanner(Banner::Error, tr("The queue was refused before any job ran: %1").arg(message));
    });
    connect(q, &JobQueue::queueFinished, this, [this](const QueueSummary& s) {
        model_->markNotStarted(s.refused ? tr("Not started: the queue was refused.")
                                         : tr("Not started: the queue was stopped."));
        const QString line = (s.dry_run ? tr("Dry run over: ") : tr("Queue over: ")) +
            QString::fromStdString(queueSummaryText(s));
        status_->setText(line);
        if (bannerLevel_ != Banner::Error && !s.refused) {  // a refusal: queueFailed said why
            if (s.failed > 0)
                setBanner(Banner::Warning,
                          tr("%n job(s) did not complete: hover over their status, or open "
                             "their manifest or log.",
                             nullptr, s.failed));
            else if (s.dry_run && bannerLevel_ == Banner::Warning)
                setBanner(Banner::Warning, bannerText() + tr("\nNothing was started or created."));
            else if (s.dry_run)
                setBanner(Banner::Info,
                          tr("Dry run: nothing was started or created. Run All starts the jobs "
                             "marked \"would run\"."));
            else
                diskBanner();
        }
        updateActions();
        updateShownLabel();
        Q_EMIT runningChanged(false);
        Q_EMIT queueFinished(s);
    });
}

bool JobsPage::cancelJob(const QString& name)
{
    if (!running() || !run_->queue().cancelJob(name))
        return false;
    model_->markCancelling(name);
    double grace = 0;
    if (file_)
        for (const JobSpec& j : file_->jobs)
            if (q(j.name) == name)
                grace = j.grace_seconds;
    status_->setText(tr("Cancelling %1: SIGTERM to its processes, SIGKILL after %2 s if any is left.")
                         .arg(name, fmt::significant(grace, 3)));
    updateActions();
    return true;
}

void JobsPage::stopQueue()
{
    if (!running())
        return;
    for (int i = 0; i < model_->jobCount(); ++i)
        model_->markCancelling(model_->job(i).name);
    run_->cancel();
    updateActions();
}

// ---- selection, chart, log, manifest ----------------------------------------------------

int JobsPage::selectedRow() const
{
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.front().row();
}

void JobsPage::showJob(const QString& name)
{
    selectJob(name, false);
}

void JobsPage::selectJob(const QString& name, bool automatic)
{
    const int row = model_->rowOf(name);
    if (row < 0)
        return;
    selecting_ = automatic;
    table_->selectRow(row);
    selecting_ = false;
    if (!automatic)
        follow_ = false;
    showSelectedJob();  // also when the row was selected already (a new run of the same job)
}

void JobsPage::onSelectionChanged()
{
    if (!selecting_)
        follow_ = selectedRow() < 0;  // the user picked a row: stay on it
    showSelectedJob();
    updateActions();
}

void JobsPage::showSelectedJob()
{
    const int row = selectedRow();
    updateShownLabel();
    if (row < 0) {
        shown_.clear();
        log_->showJob(QString(), QString());
        chart_->clear(model_->jobCount() == 0
                          ? tr("No jobs.")
                          : tr("Select a job to see its GPU memory and power, and its log."));
        return;
    }
    const JobRow& r = model_->job(row);
    shown_ = r.name;
    showChartFor(r.name);
    log_->showJob(r.name, r.run_dir);
}

void JobsPage::updateShownLabel()
{
    const int row = selectedRow();
    if (row < 0) {
        shownLabel_->setText(running() ? tr("<i>The newest job to start is shown here; select a row to see "
                                            "another.</i>")
                                       : tr("<i>Select a job to see its GPU memory, power and log.</i>"));
        return;
    }
    const QString name = model_->job(row).name.toHtmlEscaped();
    shownLabel_->setText(
        follow_ && running()
            ? tr("<b>%1</b> &nbsp;<i>(following the newest job to start; select a row to stay "
                 "on one)</i>")
                  .arg(name)
            : tr("<b>%1</b>").arg(name));
}

void JobsPage::showChartFor(const QString& name)
{
    const int row = model_->rowOf(name);
    if (row < 0)
        return;
    const JobRow& r = model_->job(row);
    auto trace = traces_.trace(name);
    if (!trace) {
        chart_->clear(isOver(r) ? tr("%1 did not run from this page since it was opened, so there is no live "
                                     "trace. Its figures are in the table and in its manifest.")
                                      .arg(name)
                                : tr("%1 has not started: its GPU memory and power appear here while it "
                                     "runs.")
                                      .arg(name));
        return;
    }
    QString title = r.gpu >= 0 ? tr("%1 on GPU %2").arg(name).arg(r.gpu) : name;
    title += QStringLiteral(" — ") + jb::statusText(r);
    chart_->setTrace(std::move(trace), title);
}

bool JobsPage::openManifest(const QString& name)
{
    const int row = model_->rowOf(name);
    if (row < 0 || model_->job(row).manifest_path.isEmpty())
        return false;
    if (!manifest_)
        manifest_ = new ManifestDialog(this);
    const bool ok = manifest_->showManifest(name, model_->job(row).manifest_path);
    manifest_->show();
    manifest_->raise();
    manifest_->activateWindow();
    return ok;
}

void JobsPage::openRunFolder()
{
    const int row = selectedRow();
    if (row < 0)
        return;
    const JobRow& r = model_->job(row);
    if (!r.run_dir.isEmpty())
        QDesktopServices::openUrl(QUrl::fromLocalFile(r.run_dir));
}

void JobsPage::updateActions()
{
    if (remote_) {  // a served queue: its controls are over there
        for (QPushButton* b : {open_, refresh_, dryRun_, runAll_, cancelJob_, stop_, manifestButton_, folderButton_})
            b->setEnabled(false);
        return;
    }
    const bool run = running();
    const bool loaded = file_.has_value();
    const int row = selectedRow();
    const JobRow* r = row >= 0 ? &model_->job(row) : nullptr;
    open_->setEnabled(!run);
    refresh_->setEnabled(!run && !path_.isEmpty());
    dryRun_->setEnabled(!run && loaded);
    runAll_->setEnabled(!run && loaded && !dryBlocked_);
    runAll_->setToolTip(dryBlocked_ ? tr("The dry run found problems (see the banner): fix them and run it again")
                                    : tr("Run every job without a run folder, one per GPU at a time. Jobs with a "
                                         "manifest are kept (preserved); orphaned folders are left for an audit."));
    stop_->setEnabled(run);
    cancelJob_->setEnabled(run && !dry_ && r &&
                           (r->state == RowState::Running || r->state == RowState::Starting) &&
                           !r->cancelling);
    manifestButton_->setEnabled(r && !r->manifest_path.isEmpty());
    folderButton_->setEnabled(r && !r->run_dir.isEmpty());
}

Status JobsPage::watchRemote(const RemoteTarget& target)
{
    if (running())
        return Error{"a queue runs here: stop it before watching another"};
    if (remote_)
        disconnectRemote();
    remote_where_ = target.where();
    remote_ = connectRemote(target, this);
    connect(remote_, &RemoteSource::connected, this, [this](const QString& kind) {
        if (kind != QLatin1String("jobs"))
            return endWatching(tr("%1 serves a measure run, not a job queue: open it in the Measure page.")
                                   .arg(remote_where_),
                               true);
        setBanner(Banner::Info, tr("Watching a job queue on %1 (remote)").arg(remote_where_));
    });
    connect(remote_, &RemoteSource::lost, this, [this](const QString& why) {
        endWatching(tr("Not watching %1 any more: %2").arg(remote_where_, why), true);
    });
    connect(remote_, &RemoteSource::jobState, this,
            [this](const QString& name, const QString& state, const nlohmann::ordered_json& detail) {
                model_->markServed(name, state, detail);
                // As a local queue's: a fresh trace at launch, shown if the page follows.
                if (state == QLatin1String("launched")) {
                    traces_.launched(name);
                    if (follow_)
                        selectJob(name, true);
                    else if (name == shown_)
                        showChartFor(name);
                } else if (name == shown_) {
                    showChartFor(name);
                }
                status_->setText(model_->summaryText());
            });
    connect(remote_, &RemoteSource::jobSample, this, [this](const QString& name, const JobProgress& p) {
        model_->setProgress(name, p.elapsed_seconds, p.peak_memory_mib, p.power_w.value_or(std::nan("")));
        if (traces_.sampled(name, p) && name == shown_)
            chart_->traceChanged();
    });
    connect(remote_, &RemoteSource::jobLog, log_, &JobLogView::append);
    connect(remote_, &RemoteSource::queueEnded, this, [this](const nlohmann::ordered_json& s) {
        const auto n = [&](const char* key) { return s.contains(key) && s[key].is_number() ? s[key].get<int>() : 0; };
        QString text = tr("The queue on %1 is over: %2 completed, %3 failed, %4 preserved, %5 not started")
                           .arg(remote_where_)
                           .arg(n("completed"))
                           .arg(n("failed"))
                           .arg(n("preserved"))
                           .arg(n("not_started"));
        const bool failed = s.contains("error") && s["error"].is_string();
        if (failed)
            text += tr(": %1").arg(QString::fromStdString(s["error"].get<std::string>()));
        endWatching(text + tr(". The manifests are on the server's machine."), failed);
    });
    model_->clear();
    traces_.clear();
    log_->clearAll();
    follow_ = true;
    chart_->clear(tr("The served queue's jobs appear here as they start: their GPU memory, power and log."));
    fileLabel_->setText(tr("<i>The job queue served on %1: its job file and run folders are on that machine.</i>")
                            .arg(remote_where_.toHtmlEscaped()));
    setBanner(Banner::Info, tr("Connecting to %1 (remote)…").arg(remote_where_));
    disconnect_->show();
    updateActions();
    return Ok{};
}

void JobsPage::endWatching(const QString& banner, bool error)
{
    if (!remote_)
        return;
    releaseRemote(remote_, this);
    disconnect_->hide();
    updateFileLabel();
    setBanner(error ? Banner::Error : Banner::Info, banner);
    updateActions();
}

void JobsPage::disconnectRemote()
{
    endWatching(tr("Disconnected from %1: the queue goes on there.").arg(remote_where_), false);
}

}  // namespace jb

#include <jb/run/MeasureRun.h>

#include <jb/library/Library.h>
#include <jb/live/SessionSource.h>
#include <jb/record/AtomicWrite.h>
#include <jb/record/Interleaved.h>
#include <jb/record/Journal.h>
#include <jb/record/RecordJson.h>
#include <jb/remote/RunServer.h>

#include <QDir>
#include <QFileInfo>
#include <QString>

namespace jb {

namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

}  // namespace

std::string recordFileName(const Record& r, const QDateTime& when)
{
    QString base;
    for (const QChar c : q(r.label.value_or("")))
        if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_') || c == QLatin1Char('.'))
            base += c;
    while (base.startsWith(QLatin1Char('.')))
        base.remove(0, 1);
    if (base.isEmpty())
        base = QStringLiteral("run");
    base = base.left(60) + QLatin1Char('-') + when.toString(QStringLiteral("yyyyMMdd-HHmmss"));
    if (r.isAborted())
        base += QStringLiteral("-aborted");
    base += QStringLiteral(".json");
    return base.toStdString();
}

std::string journalPathIn(const std::string& folder, const Plan& plan, const QDateTime& when)
{
    Record named;
    named.label = plan.label;
    std::string name = recordFileName(named, when);
    name.replace(name.size() - 5, 5, ".journal");
    return QDir(q(folder)).filePath(q(name)).toStdString();
}

MeasureRun::MeasureRun(Thread where, QObject* parent) : QObject(parent), where_(where)
{
    qRegisterMetaType<jb::MeasureOutcome>();
    if (where_ == Thread::Backend) {
        source_ = new SessionSource(this);
        connect(source_, &RunSource::roundFinished, this, &MeasureRun::onRound);
        connect(source_, &RunSource::finished, this, &MeasureRun::finishRecord);
        // The session tells its course (drops, blocks as run) just before its records.
        connect(source_, &RunSource::setRan, this, [this](const SetCourse& c) { course_ = c; });
        connect(source_, &RunSource::finishedSet, this, [this](const std::vector<Record>& records) {
            finishSet(records, std::move(course_.drops), std::move(course_.order));
            course_ = {};
        });
    }
}

MeasureRun::~MeasureRun() = default;

RunSource* MeasureRun::source() const
{
    return source_;
}

bool MeasureRun::running() const
{
    return running_;
}

Status MeasureRun::start(MeasureRunOptions options)
{
    if (running_)
        return Error{"a run is already going: stop it first"};
    if (Status v = validatePlan(options.plan); !v)
        return v;
    if (where_ == Thread::Backend && !options.env.empty())
        return Error{"a session environment (clock, children, counters) runs on the caller's thread only"};
    options_ = std::move(options);
    outcome_ = MeasureOutcome{};
    live_.reset();
    if (options_.plan.children.size() >= 2)
        live_ = std::make_unique<LiveComparison>(options_.plan, options_.baseline);
    const Plan launch = launchPlan(options_.plan);  // --exec: each command run by the shim
    if (Status st = serve(); !st)
        return st;
    if (where_ == Thread::Backend) {
        if (Status st = source_->start(launch); !st)
            return st;
        running_ = true;
        return Ok{};
    }
    if (session_)
        session_->deleteLater();
    auto* s = new Session(launch, options_.env, this);
    session_ = s;
    connect(s, &Session::roundFinished, this, &MeasureRun::onRound);
    connect(s, &Session::finished, this, &MeasureRun::finishRecord);
    connect(s, &Session::finishedSet, this,
            [this, s](const std::vector<Record>& records) { finishSet(records, s->drops(), s->order()); });
    if (server_) {
        RunServer* sv = server_;
        connect(s, &Session::started, sv,
                [sv, s](qint64 origin, const QStringList& counters) { sv->started(origin, counters, s->stores()); });
        connect(s, &Session::phase, sv, &RunServer::phase);
        connect(s, &Session::phaseMarked, sv, &RunServer::phaseMark);
        connect(s, &Session::warning, sv, &RunServer::warning);
        connect(s, &Session::childReady, sv, &RunServer::childReady);
    }
    running_ = true;
    QMetaObject::invokeMethod(s, &Session::start, Qt::QueuedConnection);
    return Ok{};
}

Status MeasureRun::serve()
{
    if (server_) {  // a server per run: the last run's watchers are done
        server_->deleteLater();
        server_ = nullptr;
    }
    if (!options_.serve)
        return Ok{};
    auto where = remote::parseServeAddress(*options_.serve);
    if (!where)
        return Error{where.error()};
    auto* sv = new RunServer("measure", this);
    if (Status st = sv->listen(*where); !st) {
        delete sv;
        return st;
    }
    server_ = sv;
    sv->plan(options_.plan);
    // The round goes out from onRound (both threads' runs); the end from the finish steps.
    if (source_) {
        connect(source_, &RunSource::started, sv,
                [sv, this](qint64 origin, const QStringList& counters) { sv->started(origin, counters, source_->stores()); });
        connect(source_, &RunSource::phase, sv, &RunServer::phase);
        connect(source_, &RunSource::phaseMarked, sv, &RunServer::phaseMark);
        connect(source_, &RunSource::warning, sv, &RunServer::warning);
        connect(source_, &RunSource::childReady, sv, &RunServer::childReady);
    }
    return Ok{};
}

void MeasureRun::stop()
{
    if (!running_)
        return;
    if (source_)
        source_->stop();
    else if (session_)
        session_->stop();
}

void MeasureRun::abort(const QString& reason)
{
    if (!running_)
        return;
    if (source_)
        source_->abort(reason);
    else if (session_)
        session_->abort(reason);
}

void MeasureRun::onRound(int index, const Round& round)
{
    if (server_)
        server_->round(index, round);
    emit roundFinished(index, round);
    if (!live_)
        return;
    const int before = live_->blocksDone();
    live_->addRound(index, round);
    if (live_->blocksDone() != before)
        emit comparisonAdvanced(live_->blocksDone());
}

void MeasureRun::addToLibrary(const std::string& path)
{
    if (!options_.library || path.empty())
        return;
    // A library that cannot take a file costs a warning, never the file.
    auto added = jb::addToLibrary(path, *options_.library);
    if (added) {
        emit libraryAdded(q(path));
    } else {
        outcome_.library_errors.emplace_back(path, added.error());
        emit libraryNotAdded(q(path), q(added.error()));
    }
}

void MeasureRun::finishRecord(const Record& record)
{
    running_ = false;
    Record rec = record;
    if (!options_.source.is_null())
        rec.extra["source"] = options_.source;
    outcome_.records = {rec};
    outcome_.aborted = rec.isAborted();
    std::string path = options_.out_path;
    if (path.empty() && !options_.folder.empty())
        path = QDir(q(options_.folder)).filePath(q(recordFileName(rec, QDateTime::currentDateTime()))).toStdString();
    outcome_.paths = {std::string()};
    if (!path.empty()) {
        const QString dir = QFileInfo(q(path)).absolutePath();
        Status st = QDir().mkpath(dir) ? writeFileAtomic(path, dumpRecord(rec))
                                       : Status(Error{"cannot create the folder " + dir.toStdString()});
        if (st) {
            outcome_.paths[0] = path;
            emit recordWritten(q(path));
            // The record is safe: the journal has done its job (the session, and so its
            // Journal, is alive still: removeOwnJournal removes only the one it created).
            if (!options_.plan.journal_path.empty()) {
                removeOwnJournal(options_.plan.journal_path);
                outcome_.journal_removed = true;
                emit journalRemoved(q(options_.plan.journal_path));
            }
            addToLibrary(path);
        } else {
            outcome_.errors.push_back(st.error());
            emit recordNotWritten(q(path), q(st.error()));
        }
    }
    if (server_)
        server_->ended(outcome_.records, outcome_.paths, outcome_.errors, outcome_.aborted);
    emit finished(outcome_);
}

void MeasureRun::finishSet(const std::vector<Record>& records, std::vector<std::optional<ChildDrop>> drops,
                           std::vector<std::vector<int>> order)
{
    running_ = false;
    outcome_.interleaved = true;
    outcome_.drops = std::move(drops);
    outcome_.drops.resize(records.size());
    std::vector<Record> recs;
    for (std::size_t i = 0; i < records.size(); ++i) {
        Record rec = records[i];
        if (!options_.source.is_null())
            rec.extra["source"] = options_.source;
        // A dropped child's record (keep_going) is aborted too: the run did not do all it planned.
        if (rec.isAborted())
            outcome_.aborted = true;
        recs.push_back(std::move(rec));
    }
    outcome_.records = recs;
    std::string folder = options_.out_dir;
    if (folder.empty() && !options_.folder.empty()) {
        std::string name = recordFileName(recs.empty() ? Record{} : recs.front(), QDateTime::currentDateTime());
        name.resize(name.size() - 5);  // ".json": the run's folder
        folder = QDir(q(options_.folder)).filePath(q(name)).toStdString();
    }
    outcome_.folder = folder;
    if (!live_)
        live_ = std::make_unique<LiveComparison>(options_.plan, options_.baseline);
    InterleavedInput in = live_->input(std::move(recs));
    if (!order.empty())
        in.order = std::move(order);  // as run: a dropped child leaves the blocks after its drop
    InterleavedWrite written;
    if (folder.empty()) {
        written.comparison = interleavedComparison(in);
    } else if (QDir().mkpath(q(folder))) {
        written = writeInterleavedRun(folder, std::move(in));
    } else {
        written.comparison = interleavedComparison(in);
        written.errors.push_back("could not create the folder " + folder);
    }
    outcome_.paths = written.paths;
    outcome_.paths.resize(records.size());
    outcome_.comparison = written.comparison;
    outcome_.comparison_path = written.comparison_path;
    outcome_.errors = written.errors;
    for (std::size_t i = 0; i < outcome_.paths.size(); ++i)
        if (!outcome_.paths[i].empty())
            emit recordWritten(q(outcome_.paths[i]));
    for (const std::string& e : outcome_.errors)
        emit recordNotWritten(q(folder), q(e));
    if (!outcome_.comparison_path.empty())
        emit comparisonWritten(q(outcome_.comparison_path));
    if (written.errors.empty() && !options_.plan.journal_path.empty()) {
        removeOwnJournal(options_.plan.journal_path);
        outcome_.journal_removed = true;
        emit journalRemoved(q(options_.plan.journal_path));
    }
    for (const std::string& path : outcome_.paths)
        addToLibrary(path);
    if (server_)
        server_->ended(outcome_.records, outcome_.paths, outcome_.errors, outcome_.aborted);
    emit finished(outcome_);
}

}  // namespace jb

#include "inspector/RecordLoader.h"

#include <jb/record/RecordLoad.h>
#include <jb/stats/PhaseEnergy.h>

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QPromise>
#include <QThreadPool>

namespace jb {

namespace {

// What a worker hands back: a record or loadRecord's message.
struct Outcome {
    LoadedRecordPtr record;
    QString error;
};

}  // namespace

RecordLoader::RecordLoader(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<jb::LoadedRecordPtr>();
}

RecordLoader::~RecordLoader() = default;

int RecordLoader::load(const QString& path)
{
    const int id = next_++;
    ++pending_;
    // The worker owns the promise; the watcher (a child of this loader) reports on the GUI
    // thread. If the loader goes first, the watcher goes with it and the result is dropped.
    auto promise = std::make_shared<QPromise<std::shared_ptr<Outcome>>>();
    auto* watcher = new QFutureWatcher<std::shared_ptr<Outcome>>(this);
    connect(watcher, &QFutureWatcherBase::progressTextChanged, this,
            [this, id, path](const QString& stage) { emit progress(id, path, stage); });
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, id, path] {
        watcher->deleteLater();
        --pending_;
        const auto future = watcher->future();
        const std::shared_ptr<Outcome> o = future.resultCount() > 0 ? future.result() : nullptr;
        if (o && o->record)
            emit loaded(id, o->record);
        else
            emit failed(id, path, o ? o->error : tr("%1: the load was cancelled").arg(path));
        if (pending_ == 0)
            emit idle();
    });
    watcher->setFuture(promise->future());
    emit progress(id, path, QStringLiteral("reading"));
    QThreadPool::globalInstance()->start([promise, path] {
        promise->start();
        promise->setProgressRange(0, 2);
        auto out = std::make_shared<Outcome>();
        QElapsedTimer t;
        t.start();
        LoadedFile f = loadRecordFile(path.toStdString());
        const double read_ms = double(t.nsecsElapsed()) / 1e6;
        if (!f.record) {
            out->error = QString::fromStdString(f.record.error());
        } else {
            promise->setProgressValueAndText(1, QStringLiteral("verifying"));
            auto lr = std::make_shared<LoadedRecord>();
            lr->path = path;
            lr->fast_samples = f.fast_samples;
            lr->read_ms = read_ms;
            lr->bytes = std::make_shared<const std::string>(std::move(f.bytes));
            auto rec = std::make_shared<const Record>(std::move(f.record).value());
            t.restart();
            lr->verify = verifyRecordWithPhases(*rec);
            lr->verify_ms = double(t.nsecsElapsed()) / 1e6;
            lr->record = std::move(rec);
            out->record = std::move(lr);
        }
        promise->addResult(std::move(out));
        promise->finish();
    });
    return id;
}

}  // namespace jb

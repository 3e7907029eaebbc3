#pragma once
// SIGINT, SIGTERM and SIGHUP as a Qt signal. The handler only writes the signal's number to a
// pipe the event loop watches (async-signal-safe), so the CLI and the dashboard can end the
// child, write what was measured and exit, instead of dying with the record unwritten. One
// instance at a time; the previous handlers come back when it is destroyed.
#include <QObject>

#include <memory>

class QSocketNotifier;

namespace jb {

class StopSignals : public QObject {
    Q_OBJECT
public:
    explicit StopSignals(QObject* parent = nullptr);
    ~StopSignals() override;
    // False where the pipe could not be made (the signals then keep their default action).
    bool installed() const { return notifier_ != nullptr; }
    // "SIGTERM" for SIGTERM, and so on.
    static QString name(int signo);

signals:
    void caught(int signo);

private:
    std::unique_ptr<QSocketNotifier> notifier_;
};

}  // namespace jb

#pragma once
// What a session says to and hears from one decoder child, whatever runs it: DecoderChild
// (a real process over the protocol, QProcess) or a test's simulated child on a simulated
// clock (tests/session/SimBench.h). Event-driven; nothing here blocks.
#include <jb/base/Result.h>
#include <jb/child/Protocol.h>

#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace jb {

class ChildLink : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    ~ChildLink() override = default;

    // The program exists and can be started; the error says which and how to fix it.
    virtual Status checkLaunchable() const = 0;
    // Where the child's stderr goes: the harness's own stderr or captured for messages. Set
    // before start().
    virtual void setForwardStderr(bool forward) = 0;
    virtual void start() = 0;     // emits ready(), or failed()
    virtual void go(int k) = 0;   // emits done() or failed()
    virtual void sendExit() = 0;  // asks the child to exit; finished() follows
    virtual void terminate() = 0;
    virtual std::int64_t pid() const = 0;
    virtual bool running() const = 0;

signals:
    void ready(jb::ReadyLine line);
    void done(jb::DoneLine line);
    // A `mark NAME` (name) or `mark -` (empty name) line between go and done, stamped on the
    // session's clock as it arrived.
    void marked(QString name, qint64 t_ns);
    // A message naming the line the child sent or how it ended; the child may still run.
    void failed(QString message);
    void finished(int exitCode, bool crashed);
};

// Makes the link for one child of a plan (argv, working folder).
using ChildFactory =
    std::function<std::unique_ptr<ChildLink>(const std::vector<std::string>& argv, const std::string& workdir)>;

}  // namespace jb

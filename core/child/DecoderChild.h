#pragma once
// The decoder child process: started from its argv (no shell), spoken to with the protocol.
// Event-driven (QProcess signals); it never blocks the thread it lives on.
#include <jb/base/Result.h>
#include <jb/child/ChildLink.h>
#include <jb/child/Protocol.h>

#include <QObject>
#include <QProcess>
#include <QString>

#include <string>
#include <vector>

namespace jb {

class DecoderChild : public ChildLink {
    Q_OBJECT
public:
    DecoderChild(std::vector<std::string> argv, std::string workdir, QObject* parent = nullptr);
    ~DecoderChild() override;

    // The program exists and is executable (searched on PATH when it has no slash), and the
    // working folder exists; the error says which and how to fix it.
    Status checkLaunchable() const override;
    // Where the child's stderr goes: the harness's own stderr (the reference's behaviour, the
    // CLI's default) or captured for messages (the GUI). Set before start().
    void setForwardStderr(bool forward) override;

    void start() override;  // emits ready(), or failed() (could not start, exited, bad first line)
    void go(int k) override;  // emits done() or failed()
    void sendExit() override;  // asks the child to exit; finished() follows
    void terminate() override;  // SIGTERM, then SIGKILL after grace_ms
    std::int64_t pid() const override;
    bool running() const override;
    QString stderrTail() const;  // last lines the child wrote on stderr, for messages

    static constexpr int kGraceMs = 2000;

    // The signals are ChildLink's; marks are stamped with jb::monotonicNs() as they arrive
    // (the child was started with JOULEBENCH_MARKS=1).

private:
    void onReadyRead();
    void takeLine();
    bool takeOneLine(std::int64_t arrived_ns);  // true: a mark was taken, look for the next line
    void onStderr();
    void onFinished(int code, QProcess::ExitStatus st);
    void onError(QProcess::ProcessError e);

    enum class Expect { Nothing, Ready, Done };
    std::vector<std::string> argv_;
    std::string workdir_;
    QProcess proc_;
    QByteArray buffer_;
    QByteArray stderr_tail_;
    Expect expect_ = Expect::Nothing;
    bool exiting_ = false;
    bool forward_stderr_ = true;
};

}  // namespace jb

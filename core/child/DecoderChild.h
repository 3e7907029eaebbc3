#pragma once
// The decoder child process: started from its argv (no shell), spoken to with the protocol.
// Event-driven (QProcess signals); it never blocks the thread it lives on.
#include <jb/base/Result.h>
#include <jb/child/Protocol.h>

#include <QObject>
#include <QProcess>
#include <QString>

#include <string>
#include <vector>

namespace jb {

class DecoderChild : public QObject {
    Q_OBJECT
public:
    DecoderChild(std::vector<std::string> argv, std::string workdir, QObject* parent = nullptr);
    ~DecoderChild() override;

    // The program exists and is executable (searched on PATH when it has no slash), and the
    // working folder exists; the error says which and how to fix it.
    Status checkLaunchable() const;
    // Where the child's stderr goes: the harness's own stderr (the reference's behaviour, the
    // CLI's default) or captured for messages (the GUI). Set before start().
    void setForwardStderr(bool forward);

    void start();  // emits ready(), or failed() (could not start, exited, bad first line)
    void go(int k);  // emits done() or failed()
    void sendExit();  // asks the child to exit; finished() follows
    void terminate();  // SIGTERM, then SIGKILL after grace_ms
    std::int64_t pid() const;
    bool running() const;
    QString stderrTail() const;  // last lines the child wrote on stderr, for messages

    static constexpr int kGraceMs = 2000;

signals:
    void ready(jb::ReadyLine line);
    void done(jb::DoneLine line);
    // A `mark NAME` (name) or `mark -` (empty name) line between go and done, timed with
    // jb::monotonicNs() as it arrived (the child was started with JOULEBENCH_MARKS=1).
    void marked(QString name, qint64 t_ns);
    // A message naming the line the child sent or how it ended; the child may still run.
    void failed(QString message);
    void finished(int exitCode, bool crashed);

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

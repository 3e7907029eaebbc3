#include <jb/child/DecoderChild.h>

#include <jb/base/Clock.h>
#include <jb/base/QtText.h>

#include <QDir>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTimer>

#include <csignal>
#include <unistd.h>

namespace jb {

namespace {
constexpr qsizetype kMaxLineBytes = 1 << 20;  // a line longer than this is not the protocol
constexpr qsizetype kStderrTailBytes = 4096;
}  // namespace

DecoderChild::DecoderChild(std::vector<std::string> argv, std::string workdir, QObject* parent)
    : ChildLink(parent)
    , argv_(std::move(argv))
    , workdir_(std::move(workdir))
{
    connect(&proc_, &QProcess::readyReadStandardOutput, this, &DecoderChild::onReadyRead);
    connect(&proc_, &QProcess::readyReadStandardError, this, &DecoderChild::onStderr);
    connect(&proc_, &QProcess::finished, this, &DecoderChild::onFinished);
    connect(&proc_, &QProcess::errorOccurred, this, &DecoderChild::onError);
}

DecoderChild::~DecoderChild()
{
    if (proc_.state() != QProcess::NotRunning) {
        proc_.disconnect(this);
        const qint64 pid = proc_.processId();
        if (pid > 0)
            ::kill(-pid, SIGKILL);  // the child leads its own process group
        proc_.kill();
        proc_.waitForFinished(2000);
    }
}

void DecoderChild::setForwardStderr(bool forward)
{
    forward_stderr_ = forward;
}

Status DecoderChild::checkLaunchable() const
{
    if (argv_.empty() || argv_.front().empty())
        return Error{"no child command: give the decoder's command line after '--'"};
    const QString program = qtext(argv_.front());
    if (!workdir_.empty() && !QFileInfo(qtext(workdir_)).isDir())
        return Error{"the child's working folder " + workdir_ + " does not exist"};
    QString path = program;
    if (!program.contains(QLatin1Char('/'))) {
        path = QStandardPaths::findExecutable(program);
        if (path.isEmpty())
            return Error{"the child program '" + argv_.front() + "' is not on PATH"};
    } else if (QFileInfo(program).isRelative() && !workdir_.empty()) {
        path = QDir(qtext(workdir_)).filePath(program);
    }
    const QFileInfo fi(path);
    if (!fi.exists())
        return Error{"the child program " + argv_.front() + " does not exist"};
    if (fi.isDir())
        return Error{"the child program " + argv_.front() + " is a folder, not a program"};
    if (!fi.isExecutable())
        return Error{"the child program " + argv_.front() + " is not executable (chmod +x it)"};
    return Ok{};
}

void DecoderChild::start()
{
    QStringList args;
    for (std::size_t i = 1; i < argv_.size(); ++i)
        args << qtext(argv_[i]);
    proc_.setProgram(qtext(argv_.front()));
    proc_.setArguments(args);
    if (!workdir_.empty())
        proc_.setWorkingDirectory(qtext(workdir_));
    // Phase markers are opt-in (the reference harness reads the first line after go as done):
    // a child may send `mark` lines only when told so here.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(kMarksEnv), QStringLiteral("1"));
    proc_.setProcessEnvironment(env);
    proc_.setProcessChannelMode(forward_stderr_ ? QProcess::ForwardedErrorChannel : QProcess::SeparateChannels);
    // Its own process group, so ending it ends whatever it started, and a Ctrl-C meant for
    // the harness reaches the harness, which then ends the child and writes the record.
    proc_.setChildProcessModifier([] { ::setpgid(0, 0); });
    expect_ = Expect::Ready;
    proc_.start(QIODevice::ReadWrite | QIODevice::Unbuffered);
}

void DecoderChild::go(int k)
{
    expect_ = Expect::Done;
    const std::string cmd = formatGo(k);
    proc_.write(cmd.data(), qint64(cmd.size()));
    takeLine();  // a line the child wrote early answers this go, as the reference reads it
}

void DecoderChild::sendExit()
{
    exiting_ = true;
    expect_ = Expect::Nothing;
    if (proc_.state() == QProcess::Running) {
        const std::string cmd = formatExit();
        proc_.write(cmd.data(), qint64(cmd.size()));
        proc_.closeWriteChannel();
    }
}

void DecoderChild::terminate()
{
    exiting_ = true;
    expect_ = Expect::Nothing;
    if (proc_.state() == QProcess::NotRunning)
        return;
    const qint64 pid = proc_.processId();
    if (pid > 0)
        ::kill(-pid, SIGTERM);
    proc_.terminate();
    QTimer::singleShot(kGraceMs, this, [this, pid] {
        if (proc_.state() != QProcess::NotRunning) {
            if (pid > 0)
                ::kill(-pid, SIGKILL);
            proc_.kill();
        }
    });
}

std::int64_t DecoderChild::pid() const
{
    return proc_.processId();
}

bool DecoderChild::running() const
{
    return proc_.state() != QProcess::NotRunning;
}

QString DecoderChild::stderrTail() const
{
    return QString::fromUtf8(stderr_tail_).trimmed();
}

void DecoderChild::onReadyRead()
{
    buffer_.append(proc_.readAllStandardOutput());
    takeLine();
}

void DecoderChild::takeLine()
{
    // The arrival time of this batch of output: a marker is timed by when it reached us.
    const std::int64_t arrived_ns = monotonicNs();
    for (;;) {
        if (expect_ == Expect::Nothing)
            return;  // lines wait in the buffer for the next request, as the reference reads them
        if (!takeOneLine(arrived_ns))
            return;
    }
}

bool DecoderChild::takeOneLine(std::int64_t arrived_ns)
{
    const qsizetype nl = buffer_.indexOf('\n');
    if (nl < 0) {
        if (buffer_.size() > kMaxLineBytes) {
            const Expect was = expect_;
            expect_ = Expect::Nothing;
            emit failed(QStringLiteral("the child wrote over 1 MiB without a newline where '%1' was expected")
                            .arg(was == Expect::Ready ? QStringLiteral("ready <jobs>")
                                                      : QStringLiteral("done <decodes> <wall-ns>")));
            buffer_.clear();
        }
        return false;
    }
    const QByteArray line = buffer_.left(nl);
    buffer_.remove(0, nl + 1);
    const std::string text = line.toStdString();
    if (expect_ == Expect::Done && isMarkLine(text)) {
        auto m = parseMark(text);
        if (!m) {
            expect_ = Expect::Nothing;
            emit failed(qtext(m.error()));
            return false;
        }
        emit marked(m.value().name ? qtext(*m.value().name) : QString(), qint64(arrived_ns));
        return true;  // the next line may be another mark or the done line
    }
    const Expect was = expect_;
    expect_ = Expect::Nothing;
    if (was == Expect::Ready) {
        auto r = parseReady(text);
        if (r)
            emit ready(r.value());
        else
            emit failed(qtext(r.error()));
    } else {
        auto d = parseDone(text);
        if (d)
            emit done(d.value());
        else
            emit failed(qtext(d.error()));
    }
    return false;
}

void DecoderChild::onStderr()
{
    stderr_tail_.append(proc_.readAllStandardError());
    if (stderr_tail_.size() > kStderrTailBytes)
        stderr_tail_ = stderr_tail_.right(kStderrTailBytes);
}

void DecoderChild::onFinished(int code, QProcess::ExitStatus st)
{
    // Lines still buffered may answer what is awaited (a child that prints done and exits).
    buffer_.append(proc_.readAllStandardOutput());
    takeLine();
    const Expect was = expect_;
    expect_ = Expect::Nothing;
    const bool crashed = st == QProcess::CrashExit;
    if (was != Expect::Nothing && !exiting_) {
        QString how = crashed ? QStringLiteral("was killed by a signal")
                              : QStringLiteral("exited with code %1").arg(code);
        QString msg = QStringLiteral("the child %1 before it answered '%2'")
                          .arg(how, was == Expect::Ready ? QStringLiteral("ready <jobs>")
                                                         : QStringLiteral("done <decodes> <wall-ns>"));
        if (!buffer_.isEmpty())
            msg += QStringLiteral("; its last output without a newline: ") +
                   qtext(quoteLine(buffer_.left(200).toStdString()));
        const QString tail = stderrTail();
        if (!tail.isEmpty())
            msg += QStringLiteral("; its stderr ends: ") + tail.right(300);
        emit failed(msg);
    }
    emit finished(code, crashed);
}

void DecoderChild::onError(QProcess::ProcessError e)
{
    if (e == QProcess::FailedToStart) {
        expect_ = Expect::Nothing;
        emit failed(QStringLiteral("the child program could not be started: %1").arg(proc_.errorString()));
        emit finished(-1, true);
    }
}

}  // namespace jb

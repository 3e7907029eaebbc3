#include "jobs/JobLogView.h"

#include "common/Palette.h"

#include <QDir>
#include <QFile>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextCharFormat>
#include <QVBoxLayout>

namespace jb {

QStringList readLastLines(const QString& path, int maxLines, qint64 maxBytes, QString* error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = f.errorString();
        return {};
    }
    const qint64 size = f.size();
    const qint64 from = std::max<qint64>(0, size - maxBytes);
    f.seek(from);
    QString text = QString::fromUtf8(f.readAll());
    QStringList lines = text.split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.removeLast();
    if (from > 0 && !lines.isEmpty())
        lines.removeFirst();  // cut in the middle
    if (lines.size() > maxLines)
        lines = lines.mid(lines.size() - maxLines);
    return lines;
}

JobLogView::JobLogView(QWidget* parent)
    : QWidget(parent), header_(new QLabel(this)), text_(new QPlainTextEdit(this))
{
    header_->setTextFormat(Qt::PlainText);
    header_->setObjectName(QStringLiteral("logHeader"));
    text_->setReadOnly(true);
    text_->setLineWrapMode(QPlainTextEdit::NoWrap);
    text_->setMaximumBlockCount(kMaxLines * 2 + 4);  // two files' tails and their headings
    text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text_->setPlaceholderText(tr("The selected job's output appears here."));
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    v->addWidget(header_);
    v->addWidget(text_, 1);
    header_->setText(tr("Log"));
}

bool JobLogView::hasLines(const QString& job) const
{
    const auto it = lines_.find(job);
    return it != lines_.end() && !it->second.empty();
}

void JobLogView::append(const QString& job, const QString& stream, const QString& line)
{
    std::deque<Line>& d = lines_[job];
    d.push_back({stream, line});
    while (d.size() > std::size_t(kMaxLines))
        d.pop_front();
    if (job != job_)
        return;
    if (!live_) {
        showJob(job, QString());  // the session's lines replace the files' tail
        return;
    }
    appendToView(d.back());
}

void JobLogView::appendToView(const Line& l)
{
    QScrollBar* bar = text_->verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 2;
    QTextCharFormat fmt;
    if (l.stream == QLatin1String("stderr"))
        fmt.setForeground(palette::logStderr());
    else if (l.stream == QLatin1String("driver")) {
        fmt.setForeground(palette::logDriver());
        fmt.setFontItalic(true);
    } else if (l.stream == QLatin1String("heading")) {
        fmt.setForeground(palette::logDriver());
        fmt.setFontWeight(QFont::Bold);
    }
    QTextCursor c(text_->document());
    c.movePosition(QTextCursor::End);
    if (!text_->document()->isEmpty())
        c.insertBlock();
    const QString prefix = l.stream == QLatin1String("driver") ? QStringLiteral("[driver] ")
        : l.stream == QLatin1String("heading")                 ? QStringLiteral("── ")
                                                               : QString();
    c.insertText(prefix + l.text, fmt);
    // Follow the tail unless the reader scrolled up to read something.
    if (atEnd)
        bar->setValue(bar->maximum());
}

void JobLogView::showJob(const QString& job, const QString& runDir)
{
    job_ = job;
    text_->clear();
    if (job.isEmpty()) {
        live_ = false;
        header_->setText(tr("Log"));
        return;
    }
    const auto it = lines_.find(job);
    if (it != lines_.end() && !it->second.empty()) {
        live_ = true;
        header_->setText(
            tr("Log of %1 (stdout, stderr in red, driver in grey; last %2 lines)").arg(job).arg(kMaxLines));
        for (const Line& l : it->second)
            appendToView(l);
        text_->verticalScrollBar()->setValue(text_->verticalScrollBar()->maximum());
        return;
    }
    live_ = false;
    if (runDir.isEmpty()) {
        header_->setText(tr("Log of %1: no run folder yet").arg(job));
        return;
    }
    header_->setText(tr("Log of %1, from %2").arg(job, runDir));
    const QDir dir(runDir);
    for (const char* name : {"stdout.log", "stderr.log"}) {
        const QString path = dir.filePath(QLatin1String(name));
        QString error;
        const QStringList lines = readLastLines(path, kMaxLines, 256 * 1024, &error);
        const QString stream = QLatin1String(name).chopped(4);
        appendToView({QStringLiteral("heading"),
                      error.isEmpty() ? tr("%1 (last %2 lines)").arg(QLatin1String(name)).arg(lines.size())
                                      : tr("%1: %2").arg(QLatin1String(name), error)});
        for (const QString& l : lines)
            appendToView({stream, l});
    }
    text_->verticalScrollBar()->setValue(text_->verticalScrollBar()->maximum());
}

void JobLogView::clearAll()
{
    lines_.clear();
    showJob(QString(), QString());
}

QString JobLogView::text() const
{
    return text_->toPlainText();
}

}  // namespace jb

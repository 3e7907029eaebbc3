#pragma once
// The tail of a job's log. While the page runs a queue every job's lines (stdout, stderr and
// the driver's own) are kept, the last kMaxLines of each; the view shows one job's. A job
// without lines from this session (preserved from an earlier run, or orphaned) is shown from
// its run folder's stdout.log and stderr.log.
#include <QString>
#include <QStringList>
#include <QWidget>

#include <deque>
#include <map>

class QLabel;
class QPlainTextEdit;

namespace jb {

// The last maxLines lines of a text file, reading at most maxBytes from its end; empty when
// it cannot be read (error, if given, says why).
QStringList readLastLines(const QString& path, int maxLines, qint64 maxBytes = 256 * 1024,
                          QString* error = nullptr);

class JobLogView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxLines = 500;

    explicit JobLogView(QWidget* parent = nullptr);

    // stream: "stdout", "stderr" or "driver".
    void append(const QString& job, const QString& stream, const QString& line);
    // Shows a job: its lines from this session, else its run folder's logs (runDir may be empty).
    void showJob(const QString& job, const QString& runDir);
    void clearAll();  // a new job file: forget every job's lines

    QString shownJob() const { return job_; }
    QString text() const;  // what the view shows, for tests
    bool hasLines(const QString& job) const;

private:
    struct Line {
        QString stream, text;
    };
    void appendToView(const Line& l);

    std::map<QString, std::deque<Line>> lines_;
    QString job_;
    bool live_ = false;
    QLabel* header_;
    QPlainTextEdit* text_;
};

}  // namespace jb

#pragma once
// Opens record files off the GUI thread: reads and parses the file (RecordLoad), runs
// `verify` over its samples, and hands the result back on the GUI thread as a past-tense
// signal (loaded / failed) carrying values. Several loads may run at once; each has an id.
#include <jb/record/Record.h>
#include <jb/record/Verify.h>

#include <QObject>
#include <QString>

#include <memory>
#include <string>

namespace jb {

struct LoadedRecord {
    QString path;
    std::shared_ptr<const Record> record;
    std::shared_ptr<const std::string> bytes;  // the file as read: "save a copy" writes these
    VerifyReport verify;
    bool fast_samples = false;
    double read_ms = 0;    // read and parse
    double verify_ms = 0;  // recompute from the samples
};
using LoadedRecordPtr = std::shared_ptr<const LoadedRecord>;

class RecordLoader : public QObject {
    Q_OBJECT
public:
    explicit RecordLoader(QObject* parent = nullptr);
    ~RecordLoader() override;

    // Starts loading; returns the load's id (ids count up from 1).
    int load(const QString& path);
    int pending() const { return pending_; }

signals:
    // stage: "reading", "verifying" (for the progress line).
    void progress(int id, const QString& path, const QString& stage);
    void loaded(int id, jb::LoadedRecordPtr record);
    void failed(int id, const QString& path, const QString& message);
    void idle();  // no load is running any more

private:
    int next_ = 1;
    int pending_ = 0;
};

}  // namespace jb

Q_DECLARE_METATYPE(jb::LoadedRecordPtr)

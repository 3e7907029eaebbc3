#pragma once
// The records opened or saved lately, newest first, kept in QSettings ("recentFiles").
#include <QObject>
#include <QStringList>

namespace jb {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMax = 10;
    explicit RecentFiles(QObject* parent = nullptr);
    QStringList files() const { return files_; }
    void add(const QString& path);
    void remove(const QString& path);
    void clear();

signals:
    void changed();

private:
    void store();
    QStringList files_;
};

}  // namespace jb

#pragma once
// A job's manifest, read-only: its JSON as written (sorted keys, indent 2), the file's path,
// and buttons that hand the file or its run folder to the desktop (QDesktopServices).
#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace jb {

class ManifestDialog : public QDialog {
    Q_OBJECT
public:
    explicit ManifestDialog(QWidget* parent = nullptr);
    // Reads the file; false (and the reason in the viewer) where it cannot be read.
    bool showManifest(const QString& job, const QString& path);

    QString path() const { return path_; }
    QString text() const;
    QPlainTextEdit* viewer() const { return text_; }

private:
    QString path_;
    QLabel* pathLabel_;
    QPlainTextEdit* text_;
    QPushButton* openFile_;
    QPushButton* openFolder_;
};

}  // namespace jb

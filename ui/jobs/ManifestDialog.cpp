#include "jobs/ManifestDialog.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

namespace jb {

ManifestDialog::ManifestDialog(QWidget* parent)
    : QDialog(parent), pathLabel_(new QLabel(this)), text_(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("manifestDialog"));
    resize(760, 640);
    pathLabel_->setTextFormat(Qt::PlainText);
    pathLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pathLabel_->setWordWrap(true);
    text_->setReadOnly(true);
    text_->setLineWrapMode(QPlainTextEdit::NoWrap);
    text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    openFile_ = buttons->addButton(tr("Open in Editor"), QDialogButtonBox::ActionRole);
    openFolder_ = buttons->addButton(tr("Open Run Folder"), QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(openFile_, &QPushButton::clicked, this,
            [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(path_)); });
    connect(openFolder_, &QPushButton::clicked, this,
            [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(path_).absolutePath())); });

    auto* v = new QVBoxLayout(this);
    v->addWidget(pathLabel_);
    v->addWidget(text_, 1);
    v->addWidget(buttons);
}

bool ManifestDialog::showManifest(const QString& job, const QString& path)
{
    path_ = path;
    setWindowTitle(tr("Manifest of %1").arg(job));
    pathLabel_->setText(path);
    QFile f(path);
    const bool ok = f.open(QIODevice::ReadOnly);
    text_->setPlainText(ok ? QString::fromUtf8(f.readAll())
                           : tr("Cannot read %1: %2").arg(path, f.errorString()));
    openFile_->setEnabled(ok);
    openFolder_->setEnabled(QFileInfo(path).absoluteDir().exists());
    return ok;
}

QString ManifestDialog::text() const
{
    return text_->toPlainText();
}

}  // namespace jb

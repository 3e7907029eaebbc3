#include "measure/ConnectDialog.h"

#include "common/Banner.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace jb {

ConnectDialog::ConnectDialog(QWidget* parent)
    : QDialog(parent), address_(new QLineEdit(this)), token_(new QLineEdit(this)), error_(new QLabel(this))
{
    setWindowTitle(tr("Connect to a Run"));
    address_->setObjectName(QStringLiteral("address"));
    token_->setObjectName(QStringLiteral("token"));
    error_->setObjectName(QStringLiteral("connectError"));
    address_->setPlaceholderText(QStringLiteral("127.0.0.1:8765"));
    address_->setText(QSettings().value(QStringLiteral("remote/address")).toString());
    token_->setPlaceholderText(tr("the 32 hex digits after \"token\""));
    token_->setMinimumWidth(token_->fontMetrics().horizontalAdvance(QLatin1Char('0')) * 36);
    error_->setWordWrap(true);
    error_->setStyleSheet(Banner::styleSheetFor(Tone::Error));
    error_->hide();

    auto* intro = new QLabel(tr("A run started with <tt>--serve</tt> prints \"serving on HOST:PORT token TOKEN\". "
                                "From another machine, forward the port first (<tt>ssh -L PORT:127.0.0.1:PORT host</tt>) "
                                "and connect to 127.0.0.1:PORT."),
                             this);
    intro->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("&Address:"), address_);
    form->addRow(tr("&Token:"), token_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* v = new QVBoxLayout(this);
    v->addWidget(intro);
    v->addLayout(form);
    v->addWidget(error_);
    v->addWidget(buttons);
}

Result<RemoteTarget> ConnectDialog::target() const
{
    return parseRemoteTarget(address_->text().toStdString(), token_->text().toStdString());
}

void ConnectDialog::accept()
{
    const auto t = target();
    if (!t) {
        error_->setText(QString::fromStdString(t.error()));
        error_->show();
        return;
    }
    QSettings().setValue(QStringLiteral("remote/address"), address_->text().trimmed());
    QDialog::accept();
}

}  // namespace jb

#pragma once
// "Connect to a run...": the address (HOST:PORT) and the token a served run printed
// (`--serve`, docs/REMOTE.md), checked by core/remote's parseRemoteTarget before OK closes it.
#include <jb/remote/RemoteTarget.h>

#include <QDialog>

class QLabel;
class QLineEdit;

namespace jb {

class ConnectDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConnectDialog(QWidget* parent = nullptr);

    QLineEdit* addressEdit() const { return address_; }
    QLineEdit* tokenEdit() const { return token_; }
    QLabel* errorLabel() const { return error_; }
    // What was given, checked (valid once accepted).
    Result<RemoteTarget> target() const;

    void accept() override;  // stays open with the error while the fields are wrong

private:
    QLineEdit* address_;
    QLineEdit* token_;
    QLabel* error_;
};

}  // namespace jb

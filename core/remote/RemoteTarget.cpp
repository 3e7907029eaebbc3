#include <jb/remote/RemoteTarget.h>

#include <jb/remote/RemoteSource.h>

#include <QHostAddress>
#include <QRegularExpression>

#include <utility>

namespace jb {

QString RemoteTarget::where() const
{
    return host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]:%2").arg(host).arg(port)
                                           : QStringLiteral("%1:%2").arg(host).arg(port);
}

Result<RemoteTarget> parseRemoteTarget(const std::string& address_in, const std::string& token_in)
{
    const QString address = QString::fromStdString(address_in).trimmed();
    if (address.isEmpty())
        return Error{"the address is empty: give HOST:PORT, as the run printed it (\"serving on HOST:PORT\")"};
    RemoteTarget t;
    QString port;
    if (address.startsWith(QLatin1Char('['))) {
        const qsizetype close = address.indexOf(QLatin1Char(']'));
        if (close < 0 || address.mid(close + 1, 1) != QLatin1String(":"))
            return Error{"the address \"" + address_in + "\": a V6 address is written [ADDR]:PORT"};
        t.host = address.mid(1, close - 1);
        port = address.mid(close + 2);
        if (QHostAddress(t.host).protocol() != QAbstractSocket::IPv6Protocol)
            return Error{"the address \"" + address_in + "\": \"" + t.host.toStdString() +
                         "\" between the brackets is not a V6 address"};
    } else if (const qsizetype colon = address.lastIndexOf(QLatin1Char(':')); colon >= 0) {
        t.host = address.left(colon);
        port = address.mid(colon + 1);
        if (t.host.contains(QLatin1Char(':')))
            return Error{"the address \"" + address_in + "\": a V6 address is written [ADDR]:PORT"};
        static const QRegularExpression hostRe(QStringLiteral("^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$"));
        if (t.host.isEmpty())
            return Error{"the address \"" + address_in + "\" has no host before the ':'"};
        if (!hostRe.match(t.host).hasMatch())
            return Error{"the address \"" + address_in + "\": \"" + t.host.toStdString() +
                         "\" is not a host name or an address"};
    } else {
        t.host = QStringLiteral("127.0.0.1");  // a bare port: the local end of a tunnel
        port = address;
    }
    bool ok = false;
    const uint p = port.toUInt(&ok);
    if (!ok || p == 0 || p > 65535)
        return Error{"the address \"" + address_in + "\": the port \"" + port.toStdString() +
                     "\" is not a number from 1 to 65535"};
    t.port = quint16(p);

    const QString token = QString::fromStdString(token_in).trimmed();
    if (token.isEmpty())
        return Error{"the token is empty: give the one the run printed (\"token ...\")"};
    static const QRegularExpression tokenRe(QStringLiteral("^[!-~]{1,1024}$"));  // printable, no space
    if (!tokenRe.match(token).hasMatch())
        return Error{"the token has spaces or characters a served run never prints"};
    t.token = token.toStdString();
    return t;
}

RemoteSource* connectRemote(const RemoteTarget& target, QObject* parent)
{
    auto* s = new RemoteSource(parent);
    s->connectTo(target.host, target.port, target.token);
    return s;
}

void releaseRemote(RemoteSource*& source, QObject* watcher)
{
    RemoteSource* s = std::exchange(source, nullptr);
    if (!s)
        return;
    s->disconnect(watcher);
    s->stop();
    s->deleteLater();
}

}  // namespace jb

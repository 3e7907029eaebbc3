#include <jb/remote/RemoteProtocol.h>

#include <QRandomGenerator>

namespace jb::remote {

Result<ServeAddress> parseServeAddress(const std::string& text)
{
    const QString t = QString::fromStdString(text).trimmed();
    if (t.isEmpty())
        return Error{"--serve: expected [ADDR:]PORT, got nothing"};
    QString host, port = t;
    if (t.startsWith(QLatin1Char('['))) {
        const qsizetype close = t.indexOf(QLatin1String("]:"));
        if (close < 0)
            return Error{"--serve: expected [V6ADDR]:PORT, got '" + text + "'"};
        host = t.mid(1, close - 1);
        port = t.mid(close + 2);
    } else if (const qsizetype colon = t.lastIndexOf(QLatin1Char(':')); colon >= 0) {
        host = t.left(colon);
        port = t.mid(colon + 1);
    }
    bool ok = false;
    const uint p = port.toUInt(&ok);
    if (!ok || p > 65535)
        return Error{"--serve: the port must be a number from 0 to 65535, got '" + port.toStdString() + "'"};
    ServeAddress a;
    a.port = quint16(p);
    if (!host.isEmpty() && host != QLatin1String("localhost")) {
        QHostAddress addr;
        if (!addr.setAddress(host))
            return Error{"--serve: '" + host.toStdString() + "' is not an IP address (or localhost)"};
        a.address = addr;
    }
    return a;
}

std::string newToken()
{
    QByteArray bytes(16, Qt::Uninitialized);
    QRandomGenerator* g = QRandomGenerator::system();
    for (char& c : bytes)
        c = char(g->bounded(256));
    return bytes.toHex().toStdString();
}

QByteArray line(const nlohmann::ordered_json& message)
{
    QByteArray b = QByteArray::fromStdString(message.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
    b.append('\n');
    return b;
}

}  // namespace jb::remote

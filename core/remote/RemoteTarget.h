#pragma once
// Where a watcher connects: what a user types into "Connect to a run..." (the dashboard) or
// a command line gives, checked here so that every front end says the same errors.
//   address: "HOST:PORT" or "[V6ADDR]:PORT" (a bare "PORT" is 127.0.0.1, the server's default
//            and the end of an `ssh -L` tunnel); the token: as the server printed it.
#include <jb/base/Result.h>

#include <QObject>
#include <QString>

#include <memory>
#include <string>

namespace jb {

class RemoteSource;

struct RemoteTarget {
    QString host;  // a name or an address, as given (without the brackets of a V6 address)
    quint16 port = 0;
    std::string token;
    QString where() const;  // "host:port" ("[v6]:port")
};

// The error names the part that is wrong (the address, its port, the token).
Result<RemoteTarget> parseRemoteTarget(const std::string& address, const std::string& token);

// A RemoteSource connecting to target (connected() or lost() follows); parent owns it.
RemoteSource* connectRemote(const RemoteTarget& target, QObject* parent);
// Stops watching: the source (null afterwards) says nothing more to watcher, disconnects and is
// deleted once its own signal has returned (this may be called from one of its slots).
void releaseRemote(RemoteSource*& source, QObject* watcher);

}  // namespace jb

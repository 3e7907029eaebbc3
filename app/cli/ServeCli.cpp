#include "ServeCli.h"

#include "CliCommon.h"
#include <jb/remote/RunServer.h>

namespace jbcli {

void announceServer(const QString& cmd, jb::RunServer* server)
{
    if (!server)
        return;
    err() << cmd << ": " << server->announcement() << Qt::endl;
    if (server->exposed())
        err() << cmd << ": warning: --serve listens on " << server->host()
              << ", not only this machine: anyone who can reach it and has the token can watch the run" << Qt::endl;
    QObject::connect(server, &jb::RunServer::clientRefused, [cmd](const QString& peer, const QString& why) {
        err() << cmd << ": refused a watcher from " << peer << ": " << why << Qt::endl;
    });
}

}  // namespace jbcli

// Placeholder until its room lands; replaced by the subcommand's real implementation.
#include "CliCommon.h"
#include "Commands.h"

namespace jbcli {

int cmdSummary(const QStringList& args)
{
    return usageError(args.value(0), QStringLiteral("not built yet"));
}

}  // namespace jbcli

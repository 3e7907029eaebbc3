#include "CliCommon.h"
#include "Commands.h"
namespace jbcli {
int cmdMeasure(const QStringList& args) { return usageError(args.value(0), QStringLiteral("not built yet")); }
}

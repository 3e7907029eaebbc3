#pragma once
// Reading the small text files of sysfs and /proc with the errno kept, so each reader can say
// exactly why a file could not be read (missing, permission, ...).
#include <string>

namespace jb {

// Reads the whole (small) file into `text`; returns 0 or the errno of the failed call.
int readSysFile(const std::string& path, std::string& text);

// `text` without leading and trailing ASCII whitespace (sysfs values end in '\n').
std::string trimmed(const std::string& text);

}  // namespace jb

#pragma once
// Writing a file so that a crash, a full disk or a missing folder never leaves a half-written
// record where a whole one was expected: the bytes go to a temporary file in the same folder,
// are flushed to the disk (fsync), and only then renamed over the target, which either keeps
// its old content or gets the new one entire.
#include <jb/base/Result.h>

#include <string>
#include <string_view>

namespace jb {

// The error names the path and the system's reason ("cannot write /x/r.json: No space left on
// device"); on any error the temporary file is removed and the target is left as it was.
// A new file gets mode 0644 minus the umask; a replaced file keeps its mode.
Status writeFileAtomic(const std::string& path, std::string_view bytes);

// Whether new files can be made in `folder`, found by making one (a hidden probe file, removed
// at once): permissions, a read-only mount, a missing folder or a path through a regular file
// all show, as root too. The error names the folder and the system's reason ("cannot create
// files in /x/out: Permission denied").
Status checkFolderTakesFiles(const std::string& folder);

// The folder a path names a file in: "." for a bare name, "/" for a file at the root.
std::string parentFolder(const std::string& path);

}  // namespace jb

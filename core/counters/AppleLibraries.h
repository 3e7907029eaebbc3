#pragma once
// Where the macOS glue finds Apple's libraries and programs. They are loaded at run time
// (dlopen), so the glue compiles and runs on every platform: on macOS the defaults are the
// system paths; elsewhere they are empty (nothing to load) unless a test or a flag points them
// at stand-ins. Only these defaults depend on the platform.
#include <QtGlobal>

#include <string>

#include <dlfcn.h>

namespace jb {

struct AppleLibraries {
    std::string corefoundation;  // CoreFoundation: CFString, CFDictionary, CFArray, CFRelease
    std::string ioreport;        // libIOReport: the Energy Model channels (no header, private)
    std::string libproc;         // proc_pid_rusage, for `task`
    std::string libsystem;       // mach_timebase_info, the tick length of rusage CPU times
};

inline AppleLibraries defaultAppleLibraries()
{
#ifdef Q_OS_MACOS
    return {"/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation", "/usr/lib/libIOReport.dylib",
            "/usr/lib/libproc.dylib", "/usr/lib/libSystem.dylib"};
#else
    return {};
#endif
}

// dlerror()'s text for the last failed dlopen or dlsym of the glue ("unknown error" if none).
inline std::string dlerrorText()
{
    const char* e = dlerror();
    return e ? e : "unknown error";
}

// The I/O Registry dump program that GpuTime runs for accumulatedGPUTime.
inline constexpr const char* kDefaultIoregProgram = "/usr/sbin/ioreg";

}  // namespace jb

#pragma once
// The tests' handle on the fake Apple libraries (tests/apple): their paths as AppleLibraries,
// their test-only functions, and a check that every CF object the glue made was released
// exactly once.
#include <jb/counters/AppleLibraries.h>

#include <QByteArray>
#include <QFile>
#include <QString>

#include <dlfcn.h>

#include <cstdint>
#include <string>

namespace jbtest {

inline jb::AppleLibraries fakeAppleLibraries()
{
    return {JB_FAKE_CF_LIB, JB_FAKE_IOREPORT_LIB, JB_FAKE_LIBPROC_LIB, JB_FAKE_LIBPROC_LIB};
}

template <class F>
F fakeSymbol(const char* lib, const char* name)
{
    void* h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);  // the same instance the glue loads
    return h ? reinterpret_cast<F>(dlsym(h, name)) : nullptr;
}

struct FakeCF {
    long (*live)() = fakeSymbol<long (*)()>(JB_FAKE_CF_LIB, "fakecf_live_count");
    long (*bad)() = fakeSymbol<long (*)()>(JB_FAKE_CF_LIB, "fakecf_bad_count");
    std::size_t (*reportInto)(char*, std::size_t) =
        fakeSymbol<std::size_t (*)(char*, std::size_t)>(JB_FAKE_CF_LIB, "fakecf_report");
    void (*reset)() = fakeSymbol<void (*)()>(JB_FAKE_CF_LIB, "fakecf_reset");

    bool loaded() const { return live && bad && reportInto && reset; }
    std::string report() const
    {
        std::string r(reportInto(nullptr, 0) + 1, '\0');
        r.resize(reportInto(r.data(), r.size()));
        return r;
    }
    // Empty when every object made is released and nothing was released twice.
    std::string problems() const { return live() == 0 && bad() == 0 ? std::string() : report(); }
};

struct FakeIOReport {
    int (*inject)(const char*, double) = fakeSymbol<int (*)(const char*, double)>(JB_FAKE_IOREPORT_LIB, "fakeioreport_inject");
    std::int64_t (*count)(const char*) =
        fakeSymbol<std::int64_t (*)(const char*)>(JB_FAKE_IOREPORT_LIB, "fakeioreport_count");
    bool loaded() const { return inject && count; }
};

struct FakeLibproc {
    void (*setWatts)(double) = fakeSymbol<void (*)(double)>(JB_FAKE_LIBPROC_LIB, "fakeproc_set_watts");
    void (*fail)(int) = fakeSymbol<void (*)(int)>(JB_FAKE_LIBPROC_LIB, "fakeproc_fail");
    bool loaded() const { return setWatts && fail; }
};

// Writes the fake libIOReport's configuration and points FAKE_IOREPORT_CONFIG at it.
inline bool configureFakeIOReport(const QString& path, const QByteArray& text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(text) != text.size())
        return false;
    f.close();
    return qputenv("FAKE_IOREPORT_CONFIG", QFile::encodeName(path));
}

}  // namespace jbtest

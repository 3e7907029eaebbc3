// The library at 10,000 records: how long indexing takes, and how long `library list`
// answers (the query and the table it prints; 15 times each: median, min, max), all records and
// filtered. Target: list under 100 ms. SQLite in a temporary folder (or --library SPEC, e.g. a PostgreSQL URL).
//   bench_library [--records N] [--library SPEC]
#include <jb/library/Library.h>
#include <jb/library/LibraryReport.h>
#include <jb/record/Record.h>
#include <jb/record/RecordJson.h>

#include "BenchLibrary.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int n = 10000;
    std::string spec;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--records") && i + 1 < argc)
            n = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--library") && i + 1 < argc)
            spec = argv[++i];
    }
    QTemporaryDir tmp;
    if (spec.empty())
        spec = QString(tmp.path() + QStringLiteral("/library.sqlite")).toStdString();
    auto lib = jb::Library::open(spec);
    if (!lib) {
        std::fprintf(stderr, "bench_library: %s\n", lib.error().c_str());
        return 1;
    }
    QElapsedTimer t;
    t.start();
    if (auto st = jbbench::fillLibrary(**lib, n); !st) {
        std::fprintf(stderr, "bench_library: %s\n", st.error().c_str());
        return 1;
    }
    const double index_s = double(t.nsecsElapsed()) / 1e9;
    auto timeList = [&](const char* name, const std::string& terms, bool details = false) {
        std::vector<double> ms, query_ms;
        std::size_t rows = 0, bytes = 0;
        for (int rep = 0; rep < 15; ++rep) {
            QElapsedTimer lt;
            lt.start();
            auto entries = (*lib)->list(*jb::parseQuery(terms), false, details);
            query_ms.push_back(double(lt.nsecsElapsed()) / 1e6);
            const std::string table =
                details ? jb::dumpJson(jb::entriesToJson(*entries), 1) : jb::libraryTable(*entries);
            ms.push_back(double(lt.nsecsElapsed()) / 1e6);
            rows = entries->size();
            bytes = table.size();
        }
        std::sort(ms.begin(), ms.end());
        std::sort(query_ms.begin(), query_ms.end());
        std::printf("| %s | %zu | %.1f ms | %.1f ms | %.1f ms | %.1f ms | %zu KiB |\n", name, rows, ms[ms.size() / 2],
                    ms.front(), ms.back(), query_ms[query_ms.size() / 2], bytes / 1024);
    };
    std::printf("indexed %d records in %.2f s (%.0f records/s)\n\n", n, index_s, n / index_s);
    std::printf("| list | rows | median of 15 | min | max | of which the query (median) | table |\n"
                "| --- | --- | --- | --- | --- | --- | --- |\n");
    timeList("all records", "");
    timeList("all records, --json", "", true);
    timeList("label=decoder-7", "label=decoder-7");
    timeList("meta.q=3 meta.codec=jpeg", "meta.q=3 meta.codec=jpeg");
    timeList("since=2023-11-20 commit=00000000000000000000000000000000000000a", "since=2023-11-20 commit=00000000000000000000000000000000000000a");
    return 0;
}

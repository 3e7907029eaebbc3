#pragma once
// The benchmarks' library of n records: 50 distinct synthetic records (7 rounds each), reused
// under n paths, 100 labels, 10 q values, two codecs and a commit per 10 records, one minute
// apart. bench_library and bench_librarypage time the same library.
#include <jb/library/Library.h>
#include <jb/record/Record.h>

#include "../tests/record/SyntheticRecord.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace jbbench {

inline jb::Status fillLibrary(jb::Library& lib, int n)
{
    std::vector<jb::Record> base;
    for (int i = 0; i < 50; ++i)
        base.push_back(jbtest::syntheticRecord(7, std::uint64_t(i + 1), 30.0 + i * 0.1));
    constexpr int kBatch = 500;
    for (int at = 0; at < n; at += kBatch) {
        std::vector<jb::LibraryEntry> batch;
        for (int i = at; i < std::min(n, at + kBatch); ++i) {
            jb::Record r = base[std::size_t(i % 50)];
            r.label = "decoder-" + std::to_string(i % 100);
            r.meta = jb::ojson{{"q", i % 10}, {"codec", i % 2 ? "jpeg" : "png"}};
            char commit[41];
            std::snprintf(commit, sizeof commit, "%040x", unsigned(i / 10));
            r.extra["source"] = jb::ojson{{"git_commit", commit}, {"git_dirty", false}};
            batch.push_back(jb::entryFromRecord(r, "/records/r" + std::to_string(i) + ".json", std::to_string(i),
                                                8000, 1'700'000'000'000LL + i * 60'000LL));
        }
        if (auto st = lib.addEntries(std::move(batch)); !st)
            return st;
    }
    return jb::Ok{};
}

}  // namespace jbbench

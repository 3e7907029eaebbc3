// Fuzz target: the record loader (jb::parseRecord), which reads files a user hands to
// `verify`, `summary`, `compare` and the inspector. Beyond not crashing: a record it accepts
// must write out and read back (what JouleBench saves, it can load again).
#include <jb/record/RecordJson.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto rec = jb::parseRecord(text);
    if (!rec) {
        if (rec.error().empty()) {
            std::fprintf(stderr, "parseRecord failed without a message\n");
            std::abort();
        }
        return 0;
    }
    const std::string again = jb::dumpRecord(*rec);
    auto back = jb::parseRecord(again);
    if (!back) {
        std::fprintf(stderr, "a record parseRecord accepted does not read back after dumpRecord: %s\n",
                     back.error().c_str());
        std::abort();
    }
    return 0;
}

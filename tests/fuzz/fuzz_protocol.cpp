// Fuzz target: the decoder child's protocol lines (jb::parseReady, jb::parseDone and its note's
// jb::ranStamps, jb::quoteLine), which read whatever a child prints, and jb::parseGo, which the
// bundled children read from their parent. Each line of the input is tried as each; errors must say
// something.
#include <jb/child/ChildServer.h>
#include <jb/child/Protocol.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace {

template <class R>
void check(const R& r, const char* what)
{
    if (!r.ok() && r.error().empty()) {
        std::fprintf(stderr, "%s failed without a message\n", what);
        std::abort();
    }
}

void oneLine(std::string_view line)
{
    check(jb::parseReady(line), "parseReady");
    const auto done = jb::parseDone(line);
    check(done, "parseDone");
    if (done.ok())
        (void)jb::ranStamps(*done);  // a note's ran= word: whole or none, never a crash
    check(jb::parseGo(line), "parseGo");
    (void)jb::quoteLine(line);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    oneLine(text);  // the whole input as one line, embedded newlines included
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = text.find('\n', start);
        const std::size_t stop = end == std::string_view::npos ? text.size() : end;
        oneLine(text.substr(start, stop - start));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    return 0;
}

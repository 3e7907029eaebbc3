// joulebench/child.hpp: a JouleBench protocol child and its phases, in one header (C++17,
// the standard library only). Shipped with JouleBench; copy it into your project or use the
// installed one (<prefix>/include/joulebench/child.hpp).
//
//   #include <joulebench/child.hpp>
//   int main() {
//       Model m = load();                       // before `ready`: not measured
//       return joulebench::serve(4, [&](int k) {  // 4 jobs per pass; `go k`: k passes
//           for (int pass = 0; pass < k; ++pass)
//               for (int j = 0; j < 4; ++j) {
//                   { joulebench::Phase p("parse"); m.parse(j); }
//                   { joulebench::Phase p("infer"); m.infer(j); }
//               }
//           return joulebench::Batch{4LL * k};  // decodes, and an optional note
//       });
//   }
//
// The protocol: the child prints `ready <jobs>`, answers each `go <k>` with
// `done <decodes> <wall-ns> [note]`, and ends on `exit` or end of input. What the work prints
// on std::cout would corrupt it: print to std::cerr.
//
// Phases: a Phase names what runs while it lives; a Phase inside another is nested
// ("train/forward"). Markers (`mark NAME`) are written only when asked for:
//   - inside serve(), on stdout, when JOULEBENCH_MARKS=1 (JouleBench sets it; the reference
//     harness does not, so a child run by it sends none and behaves exactly as without phases);
//   - elsewhere (a plain command run by `measure --exec`), to the file JOULEBENCH_MARK_FILE
//     names, one line per write;
//   - otherwise nowhere. Names: 1 to 64 of A-Z a-z 0-9 _ . : / + - (others become '_').
// Phases are for one thread: markers from several threads at once would interleave.
#ifndef JOULEBENCH_CHILD_HPP
#define JOULEBENCH_CHILD_HPP

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

namespace joulebench {

// What one `go k` did: the decodes (work units) and an optional note (words, no newline).
struct Batch {
    long long decodes = 0;
    std::string note;
    Batch() = default;
    Batch(long long d, std::string n = std::string()) : decodes(d), note(std::move(n)) {}
};

namespace detail {

struct State {
    std::mutex mutex;
    std::ostream* protocol = nullptr;  // serve()'s stdout, while it serves
    std::vector<std::string> open;     // the phases open, outermost first (full names)
    std::FILE* file = nullptr;         // JOULEBENCH_MARK_FILE, once opened
    bool file_failed = false;
};

inline State& state()
{
    static State s;
    return s;
}

inline std::string cleanName(const std::string& name)
{
    std::string n = name.empty() ? std::string("_") : name.substr(0, 64);
    for (char& c : n) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
                        c == '.' || c == ':' || c == '/' || c == '+' || c == '-';
        if (!ok)
            c = '_';
    }
    if (n == "-")
        n = "_";
    return n;
}

inline bool marksWanted()
{
    const char* v = std::getenv("JOULEBENCH_MARKS");
    return v && std::strcmp(v, "1") == 0;
}

// One marker line where it should go (the caller holds the mutex).
inline void emit(State& s, const std::string& name)
{
    const std::string line = "mark " + name + "\n";
    if (s.protocol) {
        if (marksWanted())
            *s.protocol << line << std::flush;
        return;
    }
    const char* path = std::getenv("JOULEBENCH_MARK_FILE");
    if (!path || !*path || s.file_failed)
        return;
    if (!s.file) {
        s.file = std::fopen(path, "a");
        if (!s.file) {
            s.file_failed = true;
            std::fprintf(stderr, "joulebench: cannot open JOULEBENCH_MARK_FILE %s: %s\n", path, std::strerror(errno));
            return;
        }
        std::setvbuf(s.file, nullptr, _IOFBF, 4096);
    }
    std::fwrite(line.data(), 1, line.size(), s.file);
    std::fflush(s.file);  // one line, one write
}

}  // namespace detail

// A phase for as long as it lives: `mark NAME` when it starts; when it ends, the phase around
// it again (or `mark -` at the outermost level).
class Phase {
public:
    explicit Phase(const std::string& name)
    {
        detail::State& s = detail::state();
        std::lock_guard<std::mutex> lock(s.mutex);
        const std::string clean = detail::cleanName(name);
        s.open.push_back(s.open.empty() ? clean : (s.open.back() + "/" + clean).substr(0, 64));
        detail::emit(s, s.open.back());
    }
    ~Phase()
    {
        detail::State& s = detail::state();
        std::lock_guard<std::mutex> lock(s.mutex);
        if (!s.open.empty())
            s.open.pop_back();
        detail::emit(s, s.open.empty() ? std::string("-") : s.open.back());
    }
    Phase(const Phase&) = delete;
    Phase& operator=(const Phase&) = delete;
};

// For a child that runs its own serving loop: while it lives, markers go to `out` (the
// protocol's stdout) when JOULEBENCH_MARKS=1, as inside serve().
class AsProtocolChild {
public:
    explicit AsProtocolChild(std::ostream& out)
    {
        std::lock_guard<std::mutex> lock(detail::state().mutex);
        detail::state().protocol = &out;
    }
    ~AsProtocolChild()
    {
        std::lock_guard<std::mutex> lock(detail::state().mutex);
        detail::state().protocol = nullptr;
    }
    AsProtocolChild(const AsProtocolChild&) = delete;
    AsProtocolChild& operator=(const AsProtocolChild&) = delete;
};

// The serving loop: `ready <jobs>`, then each `go k` runs work(k) and answers `done`. Returns
// the exit status: 0 after `exit` or end of input; 4 for a line that is neither `go <k>` nor
// `exit`; 5 when work throws. Messages go to err.
inline int serve(long long jobs, const std::function<Batch(int k)>& work, std::istream& in = std::cin,
                 std::ostream& out = std::cout, std::ostream& err = std::cerr)
{
    const AsProtocolChild serving(out);
    out << "ready " << jobs << '\n' << std::flush;
    std::string line;
    while (std::getline(in, line)) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.pop_back();
        if (line == "exit")
            return 0;
        long long k = -1;
        if (line.compare(0, 3, "go ") == 0) {
            const std::string n = line.substr(3);
            char* end = nullptr;
            errno = 0;
            k = std::strtoll(n.c_str(), &end, 10);
            if (n.empty() || *end != '\0' || errno != 0 || k < 0 || k > 2147483647LL || n[0] == '-' || n[0] == '+')
                k = -1;
        }
        if (k < 0) {
            err << "joulebench child: expected 'go <k>' (k a non-negative integer) or 'exit', got '" << line << "'\n"
                << std::flush;
            return 4;
        }
        const auto t0 = std::chrono::steady_clock::now();
        Batch b;
        try {
            b = work(int(k));
        } catch (const std::exception& e) {
            err << "joulebench child: the work failed: " << e.what() << '\n' << std::flush;
            return 5;
        }
        const auto wall = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0);
        out << "done " << b.decodes << ' ' << static_cast<long long>(wall.count());
        if (!b.note.empty())
            out << ' ' << b.note;
        out << '\n' << std::flush;
    }
    return 0;
}

}  // namespace joulebench

#endif  // JOULEBENCH_CHILD_HPP

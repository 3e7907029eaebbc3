// A decoder child for the tests, speaking the protocol with scripted misbehaviour.
//   fakechild serve [--jobs N] [--job-ms MS] [--flag FILE] [--busy-w W] [--mode MODE] [--fail-round R]
// On `go k` it busy-loops N*k*MS ms (creating FILE while busy, so a fake powercap zone can
// raise its power; the file says "busy W T0" (tests/clients/BusyFlag.h), so a zone can draw W
// for this child from the moment it began) and answers `done <N*k> <wall-ns> truth_nj=<W * busy ns>`,
// the busy ns being the time between the flag's two edges.
// MODE: normal | noready (never prints ready) | badready (prints garbage first) | garbage
// (answers round R with garbage) | exit (exits during round R) | hang (never answers round R)
// | flood (writes endless output without a newline in round R) | nostdin (never reads again
// after ready) | stubborn (ignores SIGTERM) | badmark (sends a marker with a bad name in round R).
// --phases NAME:MS:W,...: each pass of a round (k of them) runs these phases in order, NAME for
// MS ms drawing W (the flag says "busy W T0" for each, BusyFlag.h's shift), and sends
// `mark NAME` at each start, only where JOULEBENCH_MARKS=1 (the opt-in: without it, none). The
// done line's note is then phase_truth_nj=NAME:NJ,... (W x the phase's busy ns, summed over the
// passes, in the order of the list).
// --cpu-clock: spin until the process's CPU time (not the wall clock) has advanced by the busy
// time, so a counter that draws power per CPU second (`sim`) sees the same energy per decode
// however loaded the machine is (a wall-clock spin on a shared core gets a load-dependent share).
#include "BusyFlag.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <ctime>
#include <vector>
#include <unistd.h>

namespace {
using Clock = std::chrono::steady_clock;
bool g_cpu_clock = false;

std::int64_t cpuNs()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return std::int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

void spin(std::int64_t ns)
{
    volatile std::uint64_t y = 0;
    if (g_cpu_clock) {
        const std::int64_t until = cpuNs() + ns;
        while (cpuNs() < until)
            for (int i = 0; i < 1000; ++i)
                y = y * 6364136223846793005ULL + 1;
        return;
    }
    const auto end = Clock::now() + std::chrono::nanoseconds(ns);
    volatile std::uint64_t x = 0;
    while (Clock::now() < end)
        for (int i = 0; i < 1000; ++i)
            x = x * 6364136223846793005ULL + 1;
}
}  // namespace

int main(int argc, char** argv)
{
    long jobs = 4, job_ms = 50, fail_round = 1;
    double busy_w = 0;
    std::string flag, mode = "normal", phases_arg;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--jobs") jobs = std::atol(next().c_str());
        else if (a == "--job-ms") job_ms = std::atol(next().c_str());
        else if (a == "--flag") flag = next();
        else if (a == "--busy-w") busy_w = std::atof(next().c_str());
        else if (a == "--mode") mode = next();
        else if (a == "--fail-round") fail_round = std::atol(next().c_str());
        else if (a == "--phases") phases_arg = next();
        else if (a == "--cpu-clock") g_cpu_clock = true;
    }
    struct Phase {
        std::string name;
        long ms = 0;
        double w = 0;
    };
    std::vector<Phase> phases;
    for (std::size_t pos = 0; pos < phases_arg.size();) {
        std::size_t comma = phases_arg.find(',', pos);
        if (comma == std::string::npos)
            comma = phases_arg.size();
        const std::string item = phases_arg.substr(pos, comma - pos);
        const std::size_t c1 = item.find(':'), c2 = item.find(':', c1 == std::string::npos ? c1 : c1 + 1);
        if (c1 == std::string::npos || c2 == std::string::npos) {
            std::fprintf(stderr, "fakechild: --phases takes NAME:MS:W,...\n");
            return 2;
        }
        phases.push_back({item.substr(0, c1), std::atol(item.substr(c1 + 1, c2 - c1 - 1).c_str()),
                          std::atof(item.substr(c2 + 1).c_str())});
        pos = comma + 1;
    }
    const char* marks_env = std::getenv("JOULEBENCH_MARKS");
    const bool may_mark = marks_env && std::string(marks_env) == "1";
    if (mode == "stubborn")
        std::signal(SIGTERM, SIG_IGN);
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    if (mode == "noready") {
        for (;;) pause();
    }
    if (mode == "badready")
        std::printf("loading model...\n");
    std::printf("ready %ld\n", jobs);
    if (mode == "nostdin") {
        for (;;) pause();
    }
    std::string line;
    long round = 0;
    while (std::getline(std::cin, line)) {
        if (line == "exit")
            return 0;
        if (line.rfind("go ", 0) != 0) {
            std::fprintf(stderr, "fakechild: unknown command '%s'\n", line.c_str());
            return 3;
        }
        ++round;
        const long k = std::atol(line.c_str() + 3);
        if (round == fail_round) {
            if (mode == "garbage") { std::printf("oops %ld\n", round); continue; }
            if (mode == "exit") { std::fprintf(stderr, "fakechild: crashing on purpose\n"); return 7; }
            if (mode == "hang") { for (;;) pause(); }
            if (mode == "flood") { std::string s(65536, 'x'); for (;;) std::fwrite(s.data(), 1, s.size(), stdout); }
            if (mode == "badmark" && may_mark) std::printf("mark bad name!\n");
        }
        if (!phases.empty()) {
            const auto t0 = Clock::now();
            std::vector<double> truth(phases.size(), 0.0);
            std::int64_t at = 0;
            bool raised = false;
            for (long pass = 0; pass < k; ++pass) {
                for (std::size_t i = 0; i < phases.size(); ++i) {
                    const Phase& ph = phases[i];
                    // The mark goes out first, then the power changes: JouleBench times the mark
                    // on arrival, a pipe's hop later.
                    if (may_mark)
                        std::printf("mark %s\n", ph.name.c_str());
                    std::int64_t start = 0;
                    if (flag.empty())
                        start = busyflag::nowNs();
                    else
                        start = raised ? busyflag::shift(flag, ph.w) : busyflag::raise(flag, ph.w);
                    raised = true;
                    if (i > 0 || pass > 0) {
                        const std::size_t prev = i > 0 ? i - 1 : phases.size() - 1;
                        truth[prev] += phases[prev].w * double(start - at);
                    }
                    at = start;
                    spin(std::int64_t(ph.ms) * 1'000'000);
                }
            }
            const std::int64_t end = flag.empty() ? busyflag::nowNs() : busyflag::lower(flag);
            truth.back() += phases.back().w * double(end - at);
            const auto wall = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
            std::string note = "phase_truth_nj=";
            for (std::size_t i = 0; i < phases.size(); ++i)
                note += (i ? "," : "") + phases[i].name + ":" + std::to_string((long long)truth[i]);
            std::printf("done %ld %lld %s\n", jobs * k, (long long)wall, note.c_str());
            continue;
        }
        const auto t0 = Clock::now();
        // The flag says "busy W T0" (tests/clients/BusyFlag.h): a fake zone that reads it books
        // W for exactly the time between this child's two edges.
        std::int64_t edge0 = busyflag::nowNs(), edge1 = 0;
        if (!flag.empty())
            edge0 = busyflag::raise(flag, busy_w);
        const std::int64_t busy_ns = std::int64_t(jobs) * k * job_ms * 1'000'000;
        spin(busy_ns);
        edge1 = flag.empty() ? busyflag::nowNs() : busyflag::lower(flag);
        const auto wall = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
        if (busy_w > 0)
            std::printf("done %ld %lld truth_nj=%lld\n", jobs * k, (long long)wall,
                        (long long)(busy_w * double(edge1 - edge0)));
        else
            std::printf("done %ld %lld\n", jobs * k, (long long)wall);
    }
    return 0;
}

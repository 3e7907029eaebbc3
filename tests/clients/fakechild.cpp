// A decoder child for the tests, speaking the protocol with scripted misbehaviour.
//   fakechild serve [--jobs N] [--job-ms MS] [--flag FILE] [--busy-w W] [--mode MODE] [--fail-round R]
// On `go k` it busy-loops N*k*MS ms (creating FILE while busy, so a fake powercap zone can
// raise its power; the file says "busy W T0" (tests/clients/BusyFlag.h), so a zone can draw W
// for this child from the moment it began) and answers `done <N*k> <wall-ns> truth_nj=<W * busy ns>`,
// the busy ns being the time between the flag's two edges.
// MODE: normal | noready (never prints ready) | badready (prints garbage first) | garbage
// (answers round R with garbage) | exit (exits during round R) | hang (never answers round R)
// | flood (writes endless output without a newline in round R) | nostdin (never reads again
// after ready) | stubborn (ignores SIGTERM).
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
#include <unistd.h>

namespace {
using Clock = std::chrono::steady_clock;

void spin(std::int64_t ns)
{
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
    std::string flag, mode = "normal";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--jobs") jobs = std::atol(next().c_str());
        else if (a == "--job-ms") job_ms = std::atol(next().c_str());
        else if (a == "--flag") flag = next();
        else if (a == "--busy-w") busy_w = std::atof(next().c_str());
        else if (a == "--mode") mode = next();
        else if (a == "--fail-round") fail_round = std::atol(next().c_str());
    }
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

#pragma once
// The busy flag that tests/clients/fakechild raises while it works and tests/clients/fakezone
// watches, with the clock times of both edges, so a zone books the child's busy energy for
// exactly the time the child says it was busy, however late the zone's own tick runs.
//
//   FLAG          "busy W T0": the child has been busy since T0 (steady-clock ns, the same
//                 clock in every process), drawing W (0: the zone's own busy power)
//   FLAG.end      "T1 [T0]": written just before FLAG goes; the last busy span ended at T1
//                 (and began at T0: a span too short for the zone to see FLAG up is still
//                 booked, as `characterize`'s short bursts are)
//   FLAG.watch.P  a zone (process P) watches FLAG
//   FLAG.booked.P "T1": zone P has published an energy that holds the span ending at T1
//
// The child waits for every live watcher's FLAG.booked.P before it answers `done`, so the
// first counter read after its answer holds all of the round's busy energy. (A real counter
// books its energy within a millisecond; the fake zone is a process that can lose the CPU
// for tens of ms, and the wait keeps that out of what the tests measure.)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <limits>
#include <signal.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace busyflag {

inline std::int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

inline void writeWhole(const std::string& path, const std::string& text)
{
    const std::string tmp = path + ".tmp";
    std::ofstream(tmp) << text;
    std::rename(tmp.c_str(), path.c_str());  // readers never see half a line
}

// The child's side. Returns T0.
inline std::int64_t raise(const std::string& flag, double busy_w)
{
    const std::int64_t t0 = nowNs();
    writeWhole(flag, "busy " + std::to_string(busy_w) + " " + std::to_string(t0) + "\n");
    return t0;
}

// Ends the open span and opens the next one at the same instant, drawing busy_w (a child's
// phases, each at its own power: fakezone --busy-from-flag books each span at its W). The span
// ends in FLAG.end before FLAG names the next one, so a zone that sees the new FLAG finds the
// old span's end. Returns the instant.
inline std::int64_t shift(const std::string& flag, double busy_w)
{
    const std::int64_t t = nowNs();
    writeWhole(flag + ".end", std::to_string(t) + "\n");
    writeWhole(flag, "busy " + std::to_string(busy_w) + " " + std::to_string(t) + "\n");
    return t;
}

// Lowers the flag, waits (at most timeout) for every live watcher to book the span, returns T1.
inline std::int64_t lower(const std::string& flag, std::chrono::milliseconds timeout = std::chrono::milliseconds(2000))
{
    const std::int64_t t1 = nowNs();
    writeWhole(flag + ".end", std::to_string(t1) + "\n");
    std::remove(flag.c_str());
    const auto slash = flag.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : flag.substr(0, slash);
    const std::string base = flag.substr(slash == std::string::npos ? 0 : slash + 1) + ".watch.";
    std::vector<long> pids;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (const dirent* e = ::readdir(d)) {
            const std::string n = e->d_name;
            if (n.rfind(base, 0) == 0)
                pids.push_back(std::atol(n.c_str() + base.size()));
        }
        ::closedir(d);
    }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (long pid : pids) {
        const std::string booked = flag + ".booked." + std::to_string(pid);
        while (pid > 0 && ::kill(pid_t(pid), 0) == 0 && std::chrono::steady_clock::now() < deadline) {
            std::int64_t v = 0;
            if (std::ifstream(booked) >> v && v >= t1)
                break;
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    }
    return t1;
}

// The zone's side: which part of each tick the child was busy, at what power.
class Watcher {
public:
    Watcher() = default;
    explicit Watcher(std::string flag)
        : flag_(std::move(flag))
    {
        if (!flag_.empty())
            std::ofstream(flag_ + ".watch." + std::to_string(::getpid())) << "\n";
    }

    // The busy part of a tick: the span that ended in it and the span still open at its end,
    // each with the power its flag named (0: none named).
    struct Share {
        double ended_s = 0, ended_w = 0;
        double open_s = 0, open_w = 0;
        bool busy_now = false;  // the flag is up at the tick's end
        // Where in the tick they lie (steady-clock ns, clipped to the tick; set where the
        // share's seconds are above 0): the ended span [ended_from, ended_to], the open one
        // from open_from to the tick's end. A fake that models when its counter senses energy
        // (CounterModes.h) places the busy energy there, not spread over a tick that ran late.
        std::int64_t ended_from = 0, ended_to = 0, open_from = 0;
        template <class Watts>  // Watts(double flag_w) -> the busy power to book
        double joules(Watts watts) const
        {
            return (ended_s > 0 ? ended_s * watts(ended_w) : 0.0) + (open_s > 0 ? open_s * watts(open_w) : 0.0);
        }
    };
    // The busy part of the tick (from, to] (steady-clock ns).
    Share tick(std::int64_t from, std::int64_t to)
    {
        Share s;
        if (flag_.empty())
            return s;
        double w = 0;
        std::int64_t t0 = 0;
        const bool up = [&] {
            std::ifstream f(flag_);
            if (!f)
                return false;
            std::string word;
            if (!(f >> word >> w) || word != "busy")
                w = 0;
            if (!(f >> t0))
                t0 = open_ ? open_t0_ : from;  // no edge time: busy from the last tick on
            return true;
        }();
        auto overlap = [&](std::int64_t a, std::int64_t b) {
            const std::int64_t lo = std::max(a, from), hi = std::min(b, to);
            return hi > lo ? double(hi - lo) * 1e-9 : 0.0;
        };
        auto ended = [&](std::int64_t a, std::int64_t b) {
            s.ended_s = overlap(a, b);
            s.ended_from = std::max(a, from);
            s.ended_to = std::min(b, to);
        };
        if (open_ && (!up || t0 != open_t0_)) {
            std::int64_t t1 = 0;
            if (!(std::ifstream(flag_ + ".end") >> t1) || t1 < open_t0_)
                t1 = to;  // no end time: busy up to this tick
            ended(open_t0_, t1);
            s.ended_w = open_w_;
            open_ = false;
            pending_booked_ = t1;
            last_end_ = t1;
        } else if (!open_) {
            // A span that began and ended between two ticks: only its FLAG.end tells of it.
            std::int64_t t1 = 0, e0 = 0;
            std::ifstream end(flag_ + ".end");
            if (end >> t1 >> e0 && t1 > last_end_ && e0 <= t1 && e0 >= last_end_) {
                if (last_end_ >= 0) {  // not one that ended before this watcher began
                    ended(e0, t1);
                    s.ended_w = 0;
                    pending_booked_ = t1;
                }
                last_end_ = t1;
            } else if (last_end_ < 0) {
                last_end_ = 0;
            }
        }
        if (up) {
            if (!open_) {
                open_ = true;
                open_t0_ = t0;
                open_w_ = w;
            }
            s.open_s = overlap(open_t0_, std::numeric_limits<std::int64_t>::max());
            s.open_from = std::max(open_t0_, from);
            s.open_w = open_w_;
            s.busy_now = true;
        }
        return s;
    }
    // After the zone has published this tick's energy: tells a waiting child its span is booked.
    void published()
    {
        if (pending_booked_ < 0)
            return;
        writeWhole(flag_ + ".booked." + std::to_string(::getpid()), std::to_string(pending_booked_) + "\n");
        pending_booked_ = -1;
    }

private:
    std::string flag_;
    bool open_ = false;
    std::int64_t open_t0_ = 0;
    double open_w_ = 0;
    std::int64_t pending_booked_ = -1;
    std::int64_t last_end_ = -1;  // the end of the last span booked (-1: none looked at yet)
};

}  // namespace busyflag

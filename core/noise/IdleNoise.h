#pragma once
// The Noise lab's live arithmetic: which intervals make up the idle brackets
// measured now, where the Allan curve says averaging stops helping, and each round's
// marginal power. Pure: tested without widgets.
#include <jb/base/Interval.h>
#include <jb/noise/Allan.h>
#include <jb/record/Record.h>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace jb {

// An idle bracket of a run going on; no end while it lasts.
struct IdleSpan {
    std::int64_t t0_ns = 0;
    std::optional<std::int64_t> t1_ns;
};

// The idle brackets measured now: for each span (time order), the intervals inside it (an
// open span: up to the newest interval), keeping only intervals that start at or after
// since_ns (the moment the idle power or noise last changed), and only the newest
// max_brackets non-empty brackets. all: time-sorted intervals.
std::vector<std::vector<Interval>> liveIdleBrackets(std::span<const Interval> all,
                                                    const std::vector<IdleSpan>& spans, std::int64_t since_ns,
                                                    int max_brackets);

// Where averaging idle power longer stops helping, from an Allan curve. Points are trusted
// where terms / m (about the number of independent averages) is at least min_independent;
// none under two trusted points (m = 1 among them).
struct AveragingLimit {
    double tau_s = 0;   // the averaging time with the lowest Allan deviation
    double adev_w = 0;  // that deviation
    // True where the lowest point is the longest trusted one and the curve still falls close
    // to white noise's 1/sqrt(m) there: longer brackets would still help.
    bool still_falling = false;
    double white_adev_w = 0;  // sigma(1) / sqrt(m) at tau_s: what white noise would give
};
std::optional<AveragingLimit> averagingLimit(const std::vector<AllanPoint>& curve,
                                             double min_independent = 20.0);

// A round's marginal power for a counter: busy mean - mean of the two idle means; none where
// the round lacks a bracket.
std::optional<double> roundMarginalW(const CounterRound& c);

}  // namespace jb

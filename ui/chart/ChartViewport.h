#pragma once
// The power chart's window on the time axis, without a widget: following (the whole run so
// far, at least a minimum span, growing with it), frozen (the data stop at one moment while the
// run goes on), and the user's zoom and pan, which stop following until resetView(). PowerChart
// holds one and draws what it says; tests drive it directly (tests/ui/tst_chartviewport.cpp).
#include <cstdint>
#include <optional>
#include <utility>

namespace jb {

class ChartViewport {
public:
    static constexpr double kDefaultSpanS = 10.0;     // following, before a plan says more
    static constexpr double kMinVisibleSpanS = 1e-3;  // deepest zoom: a millisecond across

    // What a call changed, for the chart's signals.
    struct Change {
        bool range = false;      // the user moved the window (visibleRangeChanged)
        bool following = false;  // following() flipped
        bool frozen = false;     // frozen() flipped
    };

    bool following() const { return following_; }
    bool frozen() const { return frozen_; }
    // The newest data time shown while frozen (in the data's own clock), if there was data.
    std::optional<std::int64_t> frozenEnd() const { return frozen_end_; }
    double start() const { return t0_; }
    double end() const { return t1_; }
    std::pair<double, double> range() const { return {t0_, t1_}; }
    double minimumSpan() const { return min_span_; }

    Change setFollowing(bool follow);
    // end: the newest data time at this moment (none: no data yet).
    Change setFrozen(bool frozen, std::optional<std::int64_t> end = std::nullopt);
    // While following, the window spans at least this (not finite: kDefaultSpanS).
    void setMinimumSpan(double seconds);
    Change resetView() { return setFollowing(true); }
    // Other data: a frozen view forgets the moment it stopped at (it was of the old data).
    void newSource() { frozen_end_.reset(); }

    // The user's moves: each stops following. A window narrower than kMinVisibleSpanS widens
    // to it around its middle.
    Change setRange(double t0_s, double t1_s);
    Change zoom(double factor, double anchor_s);  // factor < 1 zooms in; not > 0: nothing
    Change pan(double dt_s);

    // Following only (else nothing): the window over the data shown, [first_s, newest_s]
    // (none: no data, [0, minimum span]), from 0 or the first sample if earlier, at least the
    // minimum span long. live: the end snaps up to the next x tick, so the line grows into the
    // space left and the axis changes only now and then.
    void follow(std::optional<std::pair<double, double>> data, bool live);

    // The x axis's tick step for the window: about eight ticks.
    double xTickStep() const;

private:
    bool following_ = true;
    bool frozen_ = false;
    std::optional<std::int64_t> frozen_end_;
    double t0_ = 0, t1_ = kDefaultSpanS;
    double min_span_ = kDefaultSpanS;
};

}  // namespace jb

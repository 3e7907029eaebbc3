#pragma once
// Tick steps and label formats for the charts' linear axes: pure math, shared by every chart
// adapter (none of them needs its own copy).
#include <QString>

namespace jb::ticks {

// The step of 1, 2 or 5 x 10^n nearest to `rough` (1 where rough is not a positive number).
double nearestStep(double rough);
// The step of 1, 2 or 5 x 10^n at or above `rough`: never more ticks than asked for (Qt Charts
// elides every label once they crowd).
double stepAtLeast(double rough);
// Decimals a label needs to tell ticks `step` apart (0 to 6).
int decimalsFor(double step);
// A printf format for QValueAxis::setLabelFormat, e.g. "%.2f".
QString labelFormat(double step);

// The most intervals an axis `extent_px` long can label when each label needs `label_px`: Qt
// Charts drops or elides labels that crowd ("…" for every one of them). An axis not laid out
// yet (extent_px <= 0) or no label size: no limit.
int intervalsThatFit(double extent_px, double label_px);
// `step`, made coarser (1, 2, 5 x 10^n) until [lo, hi] rounded outwards to it spans at most
// max_intervals steps (at least one).
double coarsenToFit(double lo, double hi, double step, int max_intervals);
// The room a label of a vertical axis needs: its font's line height and a gap.
double verticalLabelPx(double font_height_px);

// A linear axis' range and tick step.
struct Scale {
    double lo = 0, hi = 1, step = 1;
};
// [lo, hi] rounded outwards to `step`, made coarser where a vertical axis `height_px` tall
// cannot label every tick in a font `font_height_px` high (the three rules above, in the
// order every chart adapter needs them). height_px <= 0 (a horizontal axis, or one not laid
// out yet): `step` as it is.
Scale fitScale(double lo, double hi, double step, double height_px = 0, double font_height_px = 0);

// Where value v falls on an axis showing [min, max] drawn from pixel p0 over `extent` pixels
// (a negative extent for a y axis drawn upwards from its bottom edge).
double toPixel(double v, double min, double max, double p0, double extent);

}  // namespace jb::ticks

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

// Where value v falls on an axis showing [min, max] drawn from pixel p0 over `extent` pixels
// (a negative extent for a y axis drawn upwards from its bottom edge).
double toPixel(double v, double min, double max, double p0, double extent);

}  // namespace jb::ticks

#pragma once
// Every colour the dashboard paints, in one place: the verdicts (table badge, chart shading,
// summary strip, the Noise lab's banner), the tones of a message (banners, status lines), the
// run's phases (idle and busy shading) and the chart series. A page names a role here and never
// writes a colour of its own.
#include <jb/stats/Verdict.h>

#include <QColor>
#include <QString>

#include <optional>
#include <string>

namespace jb {

// ---- verdicts

struct VerdictStyle {
    QString text;       // "clean", "relative-only", ..., "no verdict"
    QColor background;  // badge fill
    QColor foreground;  // badge text, readable on the fill
};

VerdictStyle verdictStyle(std::optional<Verdict> verdict);
// The thresholds in words (jb::verdictThresholdsText), with this round's ratio if any.
QString verdictTooltip(std::optional<Verdict> verdict, std::optional<double> ratio);

// ---- the tone of a message

enum class Tone {
    Neutral,  // a fact without judgement ("saved without its raw samples")
    Info,     // worth knowing ("written by the reference harness")
    Success,  // a check passed ("verified")
    Warning,  // the figures need care (a coarse counter, a simulated counter, skipped jobs)
    Error,    // something failed (a job file that does not load, a disagreeing record)
    Alert,    // the loudest: an aborted run
};

struct ToneColors {
    QColor fill;
    QColor ink;
    QColor border;
};

ToneColors toneColors(Tone tone);

namespace palette {

// Text on the window's own background.
QColor mutedText();  // secondary lines: phase, notes, where a figure came from
QColor faintText();  // not there yet: an empty result, an empty badge's dash
QColor okText();     // a check that passed, said in a line
QColor errorText();  // a problem, said in a line or a table cell
QColor darkInk();    // markers' borders, figures drawn on a light fill
QColor emptyFill();  // a badge with nothing to show yet
QColor placeholderText();
QColor placeholderBorder();

// The run's phases, shaded behind the power trace.
QColor idleShade();    // an idle bracket
QColor busyPending();  // a busy window without its verdict yet

// Chart series and overlays.
QColor powerTrace();     // the power chart's line, the Allan curve
QColor bandFill();       // an idle bracket's mean +/- sd band
QColor bandMean();       // its mean line
QColor gridLine();       // a chart's grid, faint
QColor hoverGuide();     // the hover marker's vertical line
QColor recordA();        // a record, and the first of a comparison
QColor recordB();        // the second of a comparison
// The k-th workload of an interleaved run (its busy windows, its rows): a colour-blind-safe
// qualitative set (Okabe-Ito), repeating after eight.
QColor workload(int k);
// The k-th phase a child marks (`mark NAME`), in order of first appearance: its band on the
// power chart and its row in the Inspector's phase table. A set apart from the workloads' (Paul
// Tol's bright, colour-blind-safe), repeating after seven.
QColor phase(int k);
QColor histogramFill();  // the idle power histogram's bars
QColor histogramBorder();
QColor fitCurve();        // the fitted normal
QColor whiteNoise();      // the white-noise slope on the Allan chart
QColor averagingLimit();  // where averaging stops helping
QColor jobMemory();       // a job's GPU memory
QColor jobPower();        // a job's GPU power

// Cells of a table that compares or flags.
QColor disagreeFill();
QColor agreeFill();

// A job's status (its JobRow statusKey: "completed", "running", "timeout", ...), as its row
// and its elapsed bar show it. Light fills with dark text: readable when the row is not
// selected, and the selection colour still wins when it is.
struct RowColors {
    QColor background;  // invalid: the view's own
    QColor foreground;
};
RowColors jobStatus(const QString& key);
QColor jobBar(const QString& key, bool nearTimeout);  // nearTimeout: the last tenth of a running job
QColor logStderr();                                   // a job's stderr lines
QColor logDriver();                                   // the driver's own lines and headings

// Style sheets built from the colours above.
QString textStyle(const QColor& c, bool bold = false);  // "color: #rrggbb;"

}  // namespace palette
}  // namespace jb

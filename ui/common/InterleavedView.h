#pragma once
// A comparison record (comparison.json of measure -- A ::: B) in the Inspector: per child its
// median J/decode and s/decode, and against the baseline the ratio with its 95% interval, the
// p-value and whether the difference is significant, for energy and time side by side; a chart
// of the ratios; and a banner for a dropped child or a child record that could not be opened.
// Every figure is comparison.json's, read by record/Interleaved's reader; none is computed here.
#include <jb/record/Interleaved.h>

#include <QString>
#include <QStringList>
#include <QWidget>

class QLabel;
class QTableWidget;

namespace jb {

class Banner;
class RatioChart;

class InterleavedView : public QWidget {
    Q_OBJECT
public:
    enum Column {
        Child,
        JPerDecode,
        EnergyRatio,
        EnergyCi,
        EnergyP,
        EnergySignificant,
        SPerDecode,
        TimeRatio,
        TimeCi,
        TimeP,
        TimeSignificant,
        Blocks,
        Status,
        ColumnCount
    };

    InterleavedView(const QString& path, ComparisonRecord comparison, QWidget* parent = nullptr);

    const QString& path() const { return path_; }
    const ComparisonRecord& comparison() const { return comparison_; }
    // A new comparison in place (the Measure page's, as blocks finish).
    void setComparison(ComparisonRecord comparison);
    // What the headline names the comparison by (default: comparison.json's folder).
    void setTitle(const QString& title);
    // The child records that could not be opened, each a sentence naming its file.
    void setMissing(const QStringList& messages);

    // What a user reads, for tests.
    QString cellText(int row, Column column) const;
    int rowCount() const;
    QString headline() const;
    Banner* banner() const { return banner_; }
    RatioChart* chart() const { return chart_; }
    QTableWidget* table() const { return table_; }

private:
    void fill();
    void updateBanner();

    QString path_;
    QString title_;
    ComparisonRecord comparison_;
    QStringList missing_;
    Banner* banner_;
    QLabel* headline_;
    QTableWidget* table_;
    RatioChart* chart_;
};

}  // namespace jb

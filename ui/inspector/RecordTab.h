#pragma once
// One opened record in the Inspector: while it loads, a progress line; then a banner for what
// a reader must know first (an aborted run and why, a reference record without samples, a
// coarse counter, a counter whose J per decode is relative only), the dashboard's record view (power trace with brackets and windows,
// summary, rounds table with a counter-updates column), and beside it the energy per decode
// by round, the phases where the child marked some, `verify`, and the metadata.
#include "inspector/RecordLoader.h"
#include <jb/base/Result.h>

#include <QWidget>

class QLabel;
class QProgressBar;
class QStackedWidget;
class QTabWidget;
class QToolButton;

namespace jb {

class Banner;

class MetadataView;
class PhaseTable;
class RecordView;
class ResolutionProxyModel;
class RoundChart;
class VerifyPanel;

class RecordTab : public QWidget {
    Q_OBJECT
public:
    enum ExportKind { RoundsCsv, SamplesCsv, PowerPng, PowerSvg, RoundsPng, RoundsSvg, RecordCopy };
    Q_ENUM(ExportKind)

    explicit RecordTab(const QString& path, QWidget* parent = nullptr);
    ~RecordTab() override;

    QString path() const { return path_; }
    QString fileName() const;
    // The label, else the file name: what tabs and comparisons call it.
    QString title() const;
    bool isLoaded() const { return bool(loaded_); }
    void setProgress(const QString& stage);
    void setLoaded(LoadedRecordPtr r);
    LoadedRecordPtr loaded() const { return loaded_; }
    const Record* record() const { return loaded_ ? loaded_->record.get() : nullptr; }
    std::string counter() const;

    RecordView* recordView() const { return view_; }
    RoundChart* roundChart() const { return roundChart_; }
    VerifyPanel* verifyPanel() const { return verify_; }
    MetadataView* metadataView() const { return metadata_; }
    // The phase table (a side tab only while the record has phases).
    PhaseTable* phaseTable() const { return phases_; }
    bool showsPhases() const;
    ResolutionProxyModel* roundsProxy() const { return proxy_; }
    QTabWidget* sideTabs() const { return side_; }
    QToolButton* exportButton() const { return export_; }
    // The banners as a user reads them (empty where hidden).
    QString bannerText() const;
    QString coarseText() const;
    QString trustText() const;
    QString headerText() const;
    QString loadingText() const;

    Status exportTo(ExportKind kind, const QString& path);
    Status exportRoundsCsv(const QString& path) const;
    Status exportSamplesCsv(const QString& path) const;
    Status exportPowerChartPng(const QString& path);
    Status exportPowerChartSvg(const QString& path);
    Status exportRoundChartPng(const QString& path) const;
    Status exportRoundChartSvg(const QString& path) const;
    // The file exactly as it was read, byte for byte.
    Status saveCopy(const QString& path) const;
    QString exportTitle() const;
    // Where an export of `kind` goes by default: beside the record, named after it.
    QString suggestedExportPath(ExportKind kind) const;
    static QString exportFilter(ExportKind kind);
    static QString exportName(ExportKind kind);

signals:
    void exportRequested(jb::RecordTab::ExportKind kind);

private:
    void refreshCounter();

    QString path_;
    LoadedRecordPtr loaded_;
    QStackedWidget* stack_;
    QLabel* loadingLabel_;
    QProgressBar* loadingBar_;
    QLabel* header_;
    QToolButton* export_;
    Banner* banner_;
    Banner* coarse_;
    Banner* trust_;  // the counter's J per decode relative only (jb::counterTrust), and what to prefer
    RecordView* view_;
    ResolutionProxyModel* proxy_;
    QTabWidget* side_;
    RoundChart* roundChart_;
    QLabel* roundNote_;
    VerifyPanel* verify_;
    MetadataView* metadata_;
    PhaseTable* phases_;
};

}  // namespace jb

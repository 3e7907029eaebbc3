#include "noise/SensorView.h"

#include "noise/SensorCharts.h"
#include <jb/noise/SensorFigures.h>
#include <jb/record/JsonText.h>

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace jb {

SensorView::SensorView(QWidget* parent) : QWidget(parent)
{
    setWindowTitle(tr("Sensor view"));
    open_ = new QPushButton(tr("Open profile…"));
    figures_ = new QLabel(
        tr("A counter's profile: joulebench-cli characterize --counter SPEC --out FILE writes one."));
    figures_->setWordWrap(true);
    figures_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    step_ = new StepResponseChart;
    bursts_ = new BurstChart;
    auto* top = new QHBoxLayout;
    top->addWidget(open_);
    top->addStretch(1);
    auto* charts = new QHBoxLayout;
    charts->addWidget(step_, 1);
    charts->addWidget(bursts_, 1);
    auto* v = new QVBoxLayout(this);
    v->addLayout(top);
    v->addWidget(figures_);
    v->addLayout(charts, 1);
    connect(open_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a counter profile"), {},
                                                          tr("Counter profiles (*.json);;All files (*)"));
        if (path.isEmpty())
            return;
        if (const Status s = openProfile(path); !s)
            figures_->setText(QString::fromStdString(s.error()));
    });
}

void SensorView::setProfile(const CounterProfile& p)
{
    const SensorFigures f = sensorFigures(p);
    QStringList lines;
    lines << QString::fromStdString(p.spec.empty() ? std::string("(no spec)") : p.spec);
    for (const std::string& l : f.lines)
        lines << QString::fromStdString(l);
    figures_->setText(lines.join(QLatin1Char('\n')));
    step_->setFigures(f);
    bursts_->setFigures(f);
}

Status SensorView::openProfile(const QString& path)
{
    const std::string file = path.toStdString();
    auto text = readWholeFile(file);
    if (!text)
        return Error{text.error()};
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(*text);
    } catch (const nlohmann::json::parse_error& e) {
        return Error{file + ": not JSON: " + e.what()};
    }
    auto p = CounterProfile::fromJson(j, file);
    if (!p)
        return Error{p.error()};
    setProfile(*p);
    return Ok{};
}

QString SensorView::figuresText() const
{
    return figures_->text();
}

}  // namespace jb

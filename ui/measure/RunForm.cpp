#include "measure/RunForm.h"

#include "common/Banner.h"
#include "measure/ChildrenPanel.h"
#include "measure/CounterModel.h"
#include <jb/record/RecordJson.h>

#include <QCheckBox>
#include <QCoreApplication>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace jb {

namespace {

const QString kGroup = QStringLiteral("measure");

Result<ojson> parseMeta(const QString& text)
{
    if (text.trimmed().isEmpty())
        return ojson::object();
    auto j = parseJsonText(text.toStdString());
    if (!j)
        return Error{"meta: " + j.error()};
    if (!j->is_object())
        return Error{"meta: must be a JSON object such as {\"codec\": \"demo\"}"};
    return j;
}

// The baseline's name in an interleaved run: the label, else the program's file name.
std::string baselineName(const Plan& p)
{
    if (p.label && !p.label->empty())
        return *p.label;
    return QFileInfo(QString::fromStdString(p.child.front())).fileName().toStdString();
}

QString demoDecoderPath(const QString& appDir)
{
    return QDir(appDir).filePath(QStringLiteral("joulebench-demo-decoder"));
}

}  // namespace

QString RunForm::joinCommand(const std::vector<std::string>& argv)
{
    QStringList out;
    for (const std::string& a : argv) {
        QString s = QString::fromStdString(a);
        if (s.isEmpty() || s.contains(QLatin1Char(' ')) || s.contains(QLatin1Char('\t')) ||
            s.contains(QLatin1Char('"'))) {
            s.replace(QStringLiteral("\""), QStringLiteral("\"\"\""));
            s = QLatin1Char('"') + s + QLatin1Char('"');
        }
        out << s;
    }
    return out.join(QLatin1Char(' '));
}

Plan RunForm::firstStartPlan(const CounterOptions& options, const QString& appDir)
{
    Plan p;
    p.rounds = 5;
    p.k = 2;
    p.idle_s = 3.0;
    p.sample_ms = 100.0;
    p.label = "demo";
    const std::string best = defaultCounterSpec(options);
    p.counters = {best};
    p.child = {demoDecoderPath(appDir).toStdString(), "serve", "--jobs", "4"};
    p.meta = ojson::object();
    p.counter_options = options;
    p.with_samples = true;
    return p;
}

RunForm::RunForm(CounterOptions options, QWidget* parent)
    : QWidget(parent),
      options_(std::move(options)),
      command_(new QLineEdit(this)),
      plainCommand_(new QCheckBox(tr("Run as a plain command"), this)),
      workdir_(new QLineEdit(this)),
      label_(new QLineEdit(this)),
      rounds_(new QSpinBox(this)),
      k_(new QSpinBox(this)),
      idle_(new QDoubleSpinBox(this)),
      sample_(new QDoubleSpinBox(this)),
      counters_(new CounterModel(this)),
      counterView_(new QTableView(this)),
      counterDetail_(new QLabel(this)),
      simNote_(new QLabel(this)),
      meta_(new QPlainTextEdit(this)),
      metaStatus_(new QLabel(this)),
      problemLabel_(new QLabel(this)),
      start_(new QPushButton(tr("Start"), this)),
      stop_(new QPushButton(tr("Stop"), this))
{
    command_->setObjectName(QStringLiteral("commandEdit"));
    command_->setPlaceholderText(tr("program and arguments, e.g. ./decoder serve --jobs 4"));
    command_->setToolTip(tr("The decoder child's command line (no shell). It must print 'ready <jobs>', "
                            "answer 'go <k>' with 'done <decodes> <wall-ns>' and exit on 'exit'."));
    plainCommand_->setObjectName(QStringLiteral("plainCommandCheck"));
    plainCommand_->setToolTip(tr("The command does not speak the protocol (e.g. ffmpeg -i in.mp4 -f null -): "
                                 "joulebench-exec runs it once per decode, k times per round, so its start-up "
                                 "cost is inside each decode. Every workload compared is run so (measure --exec)."));
    workdir_->setObjectName(QStringLiteral("workdirEdit"));
    workdir_->setPlaceholderText(tr("(the current folder)"));
    label_->setObjectName(QStringLiteral("labelEdit"));
    label_->setPlaceholderText(tr("(none)"));
    rounds_->setObjectName(QStringLiteral("roundsSpin"));
    rounds_->setRange(1, 10000);
    k_->setObjectName(QStringLiteral("kSpin"));
    k_->setRange(1, 100000);
    k_->setToolTip(tr("Passes over the child's jobs per round"));
    idle_->setObjectName(QStringLiteral("idleSpin"));
    idle_->setRange(0.0, 3600.0);
    idle_->setDecimals(1);
    idle_->setSingleStep(0.5);
    idle_->setSuffix(tr(" s"));
    idle_->setToolTip(tr("Each idle bracket: before every round and after the last"));
    sample_->setObjectName(QStringLiteral("sampleSpin"));
    sample_->setRange(1.0, 60000.0);
    sample_->setDecimals(0);
    sample_->setSuffix(tr(" ms"));
    sample_->setToolTip(tr("How often the whole-device counters are read"));

    counterView_->setObjectName(QStringLiteral("counterView"));
    counterView_->setModel(counters_);
    counterView_->verticalHeader()->hide();
    counterView_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    counterView_->horizontalHeader()->setSectionResizeMode(CounterModel::CounterCol,
                                                           QHeaderView::ResizeToContents);
    counterView_->horizontalHeader()->setSectionResizeMode(CounterModel::AvailabilityCol,
                                                           QHeaderView::Stretch);
    // One line per counter (elided); the full reason and fix of the row under the pointer or
    // last clicked is spelled out below the list.
    counterView_->setWordWrap(false);
    counterView_->setTextElideMode(Qt::ElideRight);
    counterView_->setSelectionMode(QAbstractItemView::SingleSelection);
    counterView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    counterView_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    counterView_->setShowGrid(false);
    counterView_->setMouseTracking(true);
    counterView_->setMinimumHeight(120);
    counterDetail_->setObjectName(QStringLiteral("counterDetail"));
    counterDetail_->setWordWrap(true);
    counterDetail_->setTextFormat(Qt::RichText);
    counterDetail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    counterDetail_->setStyleSheet(QStringLiteral("QLabel { color: palette(dark); }"));
    connect(counterView_, &QTableView::entered, this,
            [this](const QModelIndex& i) { showCounterDetail(i.row()); });
    connect(counterView_, &QTableView::clicked, this, [this](const QModelIndex& i) {
        showCounterDetail(i.row());
        // A click anywhere on an available counter's row toggles it.
        const QModelIndex c = counters_->index(i.row(), CounterModel::CounterCol);
        if (i.column() != CounterModel::CounterCol && (counters_->flags(c) & Qt::ItemIsUserCheckable))
            counters_->setData(
                c, c.data(Qt::CheckStateRole).toInt() == Qt::Checked ? Qt::Unchecked : Qt::Checked,
                Qt::CheckStateRole);
    });

    simNote_->setObjectName(QStringLiteral("simNote"));
    simNote_->setWordWrap(true);
    simNote_->setTextFormat(Qt::PlainText);
    simNote_->setStyleSheet(Banner::styleSheetFor(Tone::Warning));

    meta_->setObjectName(QStringLiteral("metaEdit"));
    meta_->setPlaceholderText(tr("{\"codec\": \"demo\", \"quality\": 3}"));
    meta_->setTabChangesFocus(true);
    meta_->setFixedHeight(meta_->fontMetrics().lineSpacing() * 3 + 14);
    meta_->setToolTip(
        tr("Anything about the run worth keeping, as a JSON object; it goes into the record as 'meta'"));
    metaStatus_->setObjectName(QStringLiteral("metaStatus"));
    metaStatus_->setWordWrap(true);
    problemLabel_->setObjectName(QStringLiteral("problemLabel"));
    problemLabel_->setWordWrap(true);
    problemLabel_->setStyleSheet(palette::textStyle(palette::errorText()));

    start_->setObjectName(QStringLiteral("startButton"));
    start_->setDefault(true);
    start_->setToolTip(tr("Start the run (Ctrl+R)"));
    stop_->setObjectName(QStringLiteral("stopButton"));
    stop_->setToolTip(tr("End the child and keep every finished round (an aborted record)"));

    // ---- layout
    auto* browse = new QToolButton(this);
    browse->setText(tr("…"));
    browse->setToolTip(tr("Choose the program"));
    auto* browseDir = new QToolButton(this);
    browseDir->setText(tr("…"));
    browseDir->setToolTip(tr("Choose the working folder"));
    auto* cmdRow = new QHBoxLayout;
    cmdRow->addWidget(command_, 1);
    cmdRow->addWidget(browse);
    auto* dirRow = new QHBoxLayout;
    dirRow->addWidget(workdir_, 1);
    dirRow->addWidget(browseDir);
    dirRow->addWidget(plainCommand_);

    auto* child = new QGroupBox(tr("Child"), this);
    auto* cf = new QFormLayout(child);
    cf->addRow(tr("Command"), cmdRow);
    cf->addRow(tr("Folder"), dirRow);

    auto* planBox = new QGroupBox(tr("Plan"), this);
    auto* pf = new QFormLayout(planBox);
    pf->addRow(tr("Label"), label_);
    auto* rk = new QHBoxLayout;
    rk->addWidget(rounds_, 1);
    rk->addWidget(new QLabel(tr("k"), this));
    rk->addWidget(k_, 1);
    pf->addRow(tr("Rounds"), rk);
    auto* is = new QHBoxLayout;
    is->addWidget(idle_, 1);
    is->addWidget(new QLabel(tr("sample"), this));
    is->addWidget(sample_, 1);
    pf->addRow(tr("Idle"), is);

    auto* counterBox = new QGroupBox(tr("Counters"), this);
    auto* cv = new QVBoxLayout(counterBox);
    cv->addWidget(counterView_, 1);
    cv->addWidget(counterDetail_);
    cv->addWidget(simNote_);

    // Several workloads, interleaved: the command above is the baseline, each row one more.
    compareBox_ = new QGroupBox(tr("Compare workloads (interleaved)"), this);
    compareBox_->setObjectName(QStringLiteral("compareBox"));
    compareBox_->setCheckable(true);
    compareBox_->setChecked(false);
    children_ = new ChildrenPanel(compareBox_);
    children_->setVisible(false);
    auto* cbv = new QVBoxLayout(compareBox_);
    cbv->addWidget(children_);
    connect(compareBox_, &QGroupBox::toggled, this, [this](bool on) {
        children_->setVisible(on);
        validate();
    });
    connect(children_, &ChildrenPanel::changed, this, &RunForm::validate);

    auto* metaBox = new QGroupBox(tr("Meta (JSON)"), this);
    auto* mv = new QVBoxLayout(metaBox);
    mv->addWidget(meta_);
    mv->addWidget(metaStatus_);

    // The fields scroll when the window is short; Start and Stop stay in sight below them.
    auto* fields = new QWidget(this);
    auto* fv = new QVBoxLayout(fields);
    fv->setContentsMargins(0, 0, 4, 0);
    fv->addWidget(child);
    fv->addWidget(planBox);
    fv->addWidget(counterBox, 1);
    fv->addWidget(compareBox_);
    fv->addWidget(metaBox);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(fields);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // Wider than its pane (a long workload row): a scroll bar, never a clipped field.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    scroll->setObjectName(QStringLiteral("formScroll"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(start_, 1);
    buttons->addWidget(stop_, 1);

    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->addWidget(scroll, 1);
    v->addWidget(problemLabel_);
    v->addLayout(buttons);
    setMinimumWidth(fields->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width());

    {
        std::vector<CounterStatus> list = listCounters(options_);
        std::vector<CounterDetails> details;
        for (const CounterStatus& c : list)
            details.push_back(counterDetails(c.spec, options_));
        counters_->setCounters(std::move(list), std::move(details));
    }
    // Spell out first why the best counter, if it is missing, cannot be read.
    int detail = 0;
    for (int i = 0; i < int(counters_->counters().size()); ++i)
        if (counters_->counters()[std::size_t(i)].spec == "rapl") {
            detail = i;
            break;
        }
    showCounterDetail(detail);

    connect(browse, &QToolButton::clicked, this, &RunForm::browseProgram);
    connect(browseDir, &QToolButton::clicked, this, &RunForm::browseFolder);
    for (QLineEdit* e : {command_, workdir_, label_})
        connect(e, &QLineEdit::textChanged, this, &RunForm::validate);
    connect(meta_, &QPlainTextEdit::textChanged, this, &RunForm::validate);
    connect(plainCommand_, &QCheckBox::toggled, this, &RunForm::validate);
    connect(rounds_, &QSpinBox::valueChanged, this, &RunForm::validate);
    connect(k_, &QSpinBox::valueChanged, this, &RunForm::validate);
    connect(idle_, &QDoubleSpinBox::valueChanged, this, &RunForm::validate);
    connect(sample_, &QDoubleSpinBox::valueChanged, this, &RunForm::validate);
    connect(counters_, &CounterModel::checkedChanged, this, [this] {
        updateSimNote();
        validate();
    });
    connect(start_, &QPushButton::clicked, this, [this] {
        if (!problem_.isEmpty())
            return;
        saveSettings();
        emit startRequested();
    });
    connect(stop_, &QPushButton::clicked, this, &RunForm::stopRequested);

    setRunning(false);
    updateSimNote();
    validate();
}

Result<Plan> RunForm::plan() const
{
    Plan p;
    const QString label = label_->text().trimmed();
    if (!label.isEmpty())
        p.label = label.toStdString();
    p.rounds = rounds_->value();
    p.k = k_->value();
    p.idle_s = idle_->value();
    p.sample_ms = sample_->value();
    for (const QString& c : counters_->checked())
        p.counters.push_back(c.toStdString());
    auto meta = parseMeta(meta_->toPlainText());
    if (!meta)
        return Error{meta.error()};
    p.meta = meta.value();
    for (const QString& a : QProcess::splitCommand(command_->text()))
        p.child.push_back(a.toStdString());
    p.workdir = workdir_->text().trimmed().toStdString();
    p.counter_options = options_;
    p.with_samples = true;  // the GUI's record always holds the raw samples
    p.exec = plainCommand_->isChecked();
    if (p.counters.empty())
        return Error{"counters: check at least one counter to read"};
    if (p.child.empty())
        return Error{"command: give the decoder child's command line"};
    if (!p.workdir.empty() && !QFileInfo(workdir_->text().trimmed()).isDir())
        return Error{"folder: " + p.workdir + " is not a folder"};
    if (compareBox_ && compareBox_->isChecked()) {
        // The form's command is the first workload and the baseline, named as a user would call
        // it: by the label, else by its program's file name (not its whole command line, which
        // would also name its record's file); " (baseline)" is added where a workload below
        // has that name.
        PlanChild first{baselineName(p), p.child, {}};
        auto children = children_->model()->children(first);
        if (!children && children.error().find("'" + first.name + "' is taken") != std::string::npos) {
            first.name += " (baseline)";
            children = children_->model()->children(first);
        }
        if (!children)
            return Error{"workloads: " + children.error()};
        if (children->size() < 2)
            return Error{"workloads: add a second workload to compare with, or uncheck Compare workloads"};
        for (const PlanChild& c : children.value())
            if (!c.workdir.empty() && !QFileInfo(QString::fromStdString(c.workdir)).isDir())
                return Error{"workloads: " + c.name + ": folder " + c.workdir + " is not a folder"};
        p.children = std::move(children.value());
        p.warmup = children_->warmup();
        p.keep_going = children_->keepGoing();
    }
    if (Status v = validatePlan(p); !v)
        return Error{v.error()};
    return p;
}

void RunForm::applyPlan(const Plan& p)
{
    command_->setText(joinCommand(p.child));
    command_->setCursorPosition(0);  // the program, not the tail of its arguments
    workdir_->setText(QString::fromStdString(p.workdir));
    label_->setText(QString::fromStdString(p.label.value_or("")));
    rounds_->setValue(p.rounds);
    k_->setValue(p.k);
    idle_->setValue(p.idle_s);
    sample_->setValue(p.sample_ms);
    QStringList specs;
    for (const std::string& c : p.counters)
        specs << QString::fromStdString(c);
    counters_->setChecked(specs);
    meta_->setPlainText(p.meta.empty() ? QString() : QString::fromStdString(p.meta.dump()));
    children_->setKeepGoing(p.keep_going);
    plainCommand_->setChecked(p.exec);
    validate();
}

void RunForm::setK(int k)
{
    k_->setValue(k);
    validate();
}

void RunForm::loadSettings()
{
    QSettings s;
    s.beginGroup(kGroup);
    if (!s.contains(QStringLiteral("command"))) {
        s.endGroup();
        applyPlan(firstStartPlan(options_, QCoreApplication::applicationDirPath()));
        return;
    }
    command_->setText(s.value(QStringLiteral("command")).toString());
    command_->setCursorPosition(0);
    workdir_->setText(s.value(QStringLiteral("workdir")).toString());
    label_->setText(s.value(QStringLiteral("label")).toString());
    rounds_->setValue(s.value(QStringLiteral("rounds"), 5).toInt());
    k_->setValue(s.value(QStringLiteral("k"), 2).toInt());
    idle_->setValue(s.value(QStringLiteral("idle_s"), 3.0).toDouble());
    sample_->setValue(s.value(QStringLiteral("sample_ms"), 100.0).toDouble());
    meta_->setPlainText(s.value(QStringLiteral("meta")).toString());
    plainCommand_->setChecked(s.value(QStringLiteral("exec"), false).toBool());
    const QStringList wanted = s.value(QStringLiteral("counters")).toStringList();
    s.endGroup();
    counters_->setChecked(wanted);
    // A counter that was readable last time may not be now (permissions, another machine).
    if (counters_->checked().isEmpty())
        counters_->setChecked({QString::fromStdString(defaultCounterSpec(options_))});
    validate();
}

void RunForm::saveSettings() const
{
    QSettings s;
    s.beginGroup(kGroup);
    s.setValue(QStringLiteral("command"), command_->text());
    s.setValue(QStringLiteral("workdir"), workdir_->text());
    s.setValue(QStringLiteral("label"), label_->text());
    s.setValue(QStringLiteral("rounds"), rounds_->value());
    s.setValue(QStringLiteral("k"), k_->value());
    s.setValue(QStringLiteral("idle_s"), idle_->value());
    s.setValue(QStringLiteral("sample_ms"), sample_->value());
    s.setValue(QStringLiteral("counters"), counters_->checked());
    s.setValue(QStringLiteral("meta"), meta_->toPlainText());
    s.setValue(QStringLiteral("exec"), plainCommand_->isChecked());
    s.endGroup();
}

void RunForm::setRunning(bool running)
{
    running_ = running;
    for (QWidget* w : std::initializer_list<QWidget*>{command_, plainCommand_, workdir_, label_, rounds_, k_, idle_, sample_,
                                                      counterView_, meta_, compareBox_})
        w->setEnabled(!running);
    stop_->setEnabled(running);
    validate();
}

bool RunForm::simulated() const
{
    return counters_->checked().contains(QStringLiteral("sim"));
}

void RunForm::updateSimNote()
{
    simNote_->setVisible(simulated());
    simNote_->setText(tr("The counter is simulated: its watts are a model driven by the child's CPU use, "
                         "not this machine's power."));
}

void RunForm::showCounterDetail(int row)
{
    if (row < 0 || row >= int(counters_->counters().size())) {
        counterDetail_->clear();
        return;
    }
    const CounterStatus& c = counters_->counters()[std::size_t(row)];
    const QString spec = QString::fromStdString(c.spec).toHtmlEscaped();
    if (c.available)
        counterDetail_->setText(
            tr("<b>%1</b>: %2").arg(spec, QString::fromStdString(c.description).toHtmlEscaped()));
    else
        counterDetail_->setText(
            tr("<b>%1</b> is unavailable: %2").arg(spec, QString::fromStdString(c.reason).toHtmlEscaped()));
}

void RunForm::validate()
{
    auto meta = parseMeta(meta_->toPlainText());
    if (meta) {
        metaStatus_->setText(meta->empty() ? tr("No meta.") : tr("Valid JSON object."));
        metaStatus_->setStyleSheet(palette::textStyle(palette::okText()));
        meta_->setStyleSheet(QString());
    } else {
        metaStatus_->setText(QString::fromStdString(meta.error()));
        metaStatus_->setStyleSheet(palette::textStyle(palette::errorText()));
        meta_->setStyleSheet(
            QStringLiteral("QPlainTextEdit { border: 1px solid %1; }").arg(palette::errorText().name()));
    }
    const auto p = plan();
    problem_ = p ? QString() : QString::fromStdString(p.error());
    problemLabel_->setText(problem_);
    problemLabel_->setVisible(!problem_.isEmpty() && !running_ && meta);  // a meta error shows under the meta
    start_->setEnabled(!running_ && problem_.isEmpty());
}

void RunForm::browseProgram()
{
    QStringList args = QProcess::splitCommand(command_->text());
    const QString start = args.isEmpty() ? QString() : QFileInfo(args.front()).absolutePath();
    const QString program = QFileDialog::getOpenFileName(this, tr("Choose the decoder child"), start);
    if (program.isEmpty())
        return;
    std::vector<std::string> argv{program.toStdString()};
    for (int i = 1; i < args.size(); ++i)
        argv.push_back(args[i].toStdString());
    command_->setText(joinCommand(argv));
}

void RunForm::browseFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Choose the child's working folder"),
                                                          workdir_->text());
    if (!dir.isEmpty())
        workdir_->setText(dir);
}

}  // namespace jb

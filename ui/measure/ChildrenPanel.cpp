#include "measure/ChildrenPanel.h"

#include "measure/RunForm.h"
#include <jb/session/Workloads.h>

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <set>

namespace jb {

namespace {

std::vector<std::string> splitArgv(const QString& command)
{
    std::vector<std::string> argv;
    for (const QString& a : QProcess::splitCommand(command))
        argv.push_back(a.toStdString());
    return argv;
}

}  // namespace

// ---- model

ChildrenModel::ChildrenModel(QObject* parent) : QAbstractTableModel(parent) {}

int ChildrenModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(rows_.size());
}

int ChildrenModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ChildrenModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(rows_.size()))
        return {};
    const Row& r = rows_[std::size_t(index.row())];
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case Name:
            return r.name;
        case Command:
            return r.command;
        case Folder:
            return r.folder;
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Name:
            return tr("The child's name in the records and the comparison (empty: its command line)");
        case Command:
            return tr("Program and arguments (no shell); {NAME} is filled in by a parameter expansion");
        case Folder:
            return tr("Working folder (empty: the form's folder)");
        default:
            return {};
        }
    }
    return {};
}

QVariant ChildrenModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Name");
    case Command:
        return tr("Command");
    case Folder:
        return tr("Folder");
    default:
        return {};
    }
}

Qt::ItemFlags ChildrenModel::flags(const QModelIndex& index) const
{
    return QAbstractTableModel::flags(index) | Qt::ItemIsEditable;
}

bool ChildrenModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || role != Qt::EditRole || index.row() >= int(rows_.size()))
        return false;
    Row& r = rows_[std::size_t(index.row())];
    const QString v = value.toString();
    switch (index.column()) {
    case Name:
        r.name = v.trimmed();
        break;
    case Command:
        r.command = v;
        break;
    case Folder:
        r.folder = v.trimmed();
        break;
    default:
        return false;
    }
    emit dataChanged(index, index);
    return true;
}

void ChildrenModel::setRows(std::vector<Row> rows)
{
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

void ChildrenModel::addRow(Row row)
{
    beginInsertRows({}, int(rows_.size()), int(rows_.size()));
    rows_.push_back(std::move(row));
    endInsertRows();
}

void ChildrenModel::removeRowAt(int row)
{
    if (row < 0 || row >= int(rows_.size()))
        return;
    beginRemoveRows({}, row, row);
    rows_.erase(rows_.begin() + row);
    endRemoveRows();
}

Status ChildrenModel::expandRow(int row, const std::string& parameter, const std::vector<std::string>& values)
{
    if (row < 0 || row >= int(rows_.size()))
        return Error{"choose the row to expand"};
    const Row base = rows_[std::size_t(row)];
    const std::vector<std::string> argv = splitArgv(base.command);
    if (argv.empty())
        return Error{"row " + std::to_string(row + 1) + ": the command is empty"};
    std::vector<std::string> names;
    if (!base.name.isEmpty())
        names.push_back(base.name.toStdString());
    auto expanded = expandWorkloads({argv}, {ParameterAxis{parameter, values}}, names);
    if (!expanded)
        return Error{"row " + std::to_string(row + 1) + ": " + expanded.error()};
    std::vector<Row> out(rows_.begin(), rows_.begin() + row);
    for (const Workload& w : expanded.value())
        out.push_back({QString::fromStdString(w.name), RunForm::joinCommand(w.argv), base.folder});
    out.insert(out.end(), rows_.begin() + row + 1, rows_.end());
    setRows(std::move(out));
    return Ok{};
}

Result<std::vector<PlanChild>> ChildrenModel::children(const PlanChild& first) const
{
    std::vector<PlanChild> out{first};
    std::set<std::string> names{first.name};
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        const Row& r = rows_[i];
        const std::string where = "workload " + std::to_string(i + 2);
        PlanChild c;
        c.argv = splitArgv(r.command);
        if (c.argv.empty())
            return Error{where + ": the command is empty"};
        if (r.command.contains(QRegularExpression(QStringLiteral("\\{[A-Za-z_][A-Za-z0-9_]*\\}"))))
            return Error{where + ": the command still has a {NAME} placeholder: expand it with a parameter first"};
        c.name = r.name.isEmpty() ? r.command.simplified().toStdString() : r.name.toStdString();
        c.workdir = r.folder.toStdString();
        if (!names.insert(c.name).second)
            return Error{where + ": the name '" + c.name + "' is taken by another workload; give it its own"};
        out.push_back(std::move(c));
    }
    return out;
}

// ---- parameter text

Result<std::vector<std::string>> parameterValuesFromText(const std::string& name, const QString& text)
{
    const QString t = text.trimmed();
    static const QRegularExpression range(
        QStringLiteral("^(\\S+)\\s*\\.\\.\\s*(\\S+?)(?:\\s+step\\s+(\\S+))?$"));
    const auto m = range.match(t);
    Result<ParameterAxis> axis = m.hasMatch()
                                     ? parameterScan(name, m.captured(1).toStdString(), m.captured(2).toStdString(),
                                                     m.captured(3).isEmpty()
                                                         ? std::nullopt
                                                         : std::optional<std::string>(m.captured(3).toStdString()))
                                     : parameterList(name, t.toStdString());
    if (!axis)
        return Error{"values: " + axis.error()};
    return axis->values;
}

// ---- panel

ChildrenPanel::ChildrenPanel(QWidget* parent)
    : QWidget(parent),
      model_(new ChildrenModel(this)),
      view_(new QTableView(this)),
      warmup_(new QSpinBox(this)),
      keepGoing_(new QCheckBox(tr("Keep going"), this)),
      paramName_(new QLineEdit(this)),
      paramValues_(new QLineEdit(this)),
      add_(new QPushButton(tr("Add"), this)),
      remove_(new QPushButton(tr("Remove"), this)),
      expand_(new QPushButton(tr("Expand"), this)),
      problem_(new QLabel(this))
{
    setObjectName(QStringLiteral("childrenPanel"));
    view_->setObjectName(QStringLiteral("childrenView"));
    view_->setModel(model_);
    view_->horizontalHeader()->setSectionResizeMode(ChildrenModel::Command, QHeaderView::Stretch);
    view_->verticalHeader()->setVisible(false);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setMinimumHeight(90);
    warmup_->setObjectName(QStringLiteral("warmupSpin"));
    warmup_->setRange(0, 100);
    warmup_->setToolTip(tr("Warm-up blocks: run and recorded first, kept out of the comparison"));
    keepGoing_->setObjectName(QStringLiteral("keepGoingCheck"));
    keepGoing_->setToolTip(tr("A workload that fails or times out is dropped (its record is kept, marked aborted) "
                              "and the others go on; off, the first failure ends the run"));
    paramName_->setObjectName(QStringLiteral("parameterName"));
    paramName_->setPlaceholderText(tr("NAME"));
    paramName_->setMaximumWidth(90);
    paramValues_->setObjectName(QStringLiteral("parameterValues"));
    paramValues_->setPlaceholderText(tr("3,6,9  or  1..9 step 2"));
    expand_->setToolTip(tr("Replace the selected workload by one per value, {NAME} in its command filled in"));
    problem_->setObjectName(QStringLiteral("childrenProblem"));
    problem_->setWordWrap(true);

    // Two short rows, not one wide one: the form keeps the width of its pane (1280x720 included).
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add_);
    buttons->addWidget(remove_);
    buttons->addStretch(1);
    auto* options = new QHBoxLayout;
    options->addWidget(new QLabel(tr("Warm-up blocks"), this));
    options->addWidget(warmup_);
    options->addSpacing(12);
    options->addWidget(keepGoing_);
    options->addStretch(1);
    auto* scan = new QHBoxLayout;
    scan->addWidget(new QLabel(tr("Parameter"), this));
    scan->addWidget(paramName_);
    scan->addWidget(paramValues_, 1);
    scan->addWidget(expand_);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    auto* note = new QLabel(tr("Each block runs the form's command (the baseline) and every workload here once, "
                               "in a balanced order; one record per workload and a comparison."),
                            this);
    note->setWordWrap(true);
    lay->addWidget(note);
    lay->addWidget(view_);
    lay->addLayout(buttons);
    lay->addLayout(options);
    lay->addLayout(scan);
    lay->addWidget(problem_);

    connect(add_, &QPushButton::clicked, this, [this] {
        model_->addRow({});
        view_->edit(model_->index(model_->rowCount() - 1, ChildrenModel::Command));
    });
    connect(remove_, &QPushButton::clicked, this, [this] {
        const QModelIndexList sel = view_->selectionModel()->selectedRows();
        model_->removeRowAt(sel.isEmpty() ? model_->rowCount() - 1 : sel.first().row());
    });
    connect(expand_, &QPushButton::clicked, this, [this] {
        const Status s = expandSelected();
        problem_->setText(s ? QString() : QString::fromStdString(s.error()));
    });
    connect(model_, &QAbstractItemModel::dataChanged, this, &ChildrenPanel::changed);
    connect(model_, &QAbstractItemModel::modelReset, this, &ChildrenPanel::changed);
    connect(model_, &QAbstractItemModel::rowsInserted, this, &ChildrenPanel::changed);
    connect(model_, &QAbstractItemModel::rowsRemoved, this, &ChildrenPanel::changed);
    connect(warmup_, &QSpinBox::valueChanged, this, &ChildrenPanel::changed);
    connect(keepGoing_, &QCheckBox::toggled, this, &ChildrenPanel::changed);
}

bool ChildrenPanel::keepGoing() const
{
    return keepGoing_->isChecked();
}

void ChildrenPanel::setKeepGoing(bool on)
{
    keepGoing_->setChecked(on);
}

int ChildrenPanel::warmup() const
{
    return warmup_->value();
}

void ChildrenPanel::setWarmup(int blocks)
{
    warmup_->setValue(blocks);
}

Status ChildrenPanel::expandSelected()
{
    const std::string name = paramName_->text().trimmed().toStdString();
    if (name.empty())
        return Error{"parameter: give its NAME (the command's {NAME})"};
    auto values = parameterValuesFromText(name, paramValues_->text());
    if (!values)
        return Error{values.error()};
    const QModelIndexList sel = view_->selectionModel() ? view_->selectionModel()->selectedRows() : QModelIndexList{};
    int row = sel.isEmpty() ? (model_->rowCount() == 1 ? 0 : -1) : sel.first().row();
    if (row < 0)
        return Error{"choose the workload to expand (select its row)"};
    return model_->expandRow(row, name, values.value());
}

}  // namespace jb

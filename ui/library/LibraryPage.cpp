#include "library/LibraryPage.h"

#include "library/Library.h"
#include "library/LibraryModel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace jb {

LibraryPage::LibraryPage(std::string spec, QWidget* parent)
    : QWidget(parent)
    , spec_(std::move(spec))
    , model_(new LibraryModel(this))
    , proxy_(new QSortFilterProxyModel(this))
    , view_(new QTableView(this))
    , filter_(new QLineEdit(this))
    , status_(new QLabel(this))
{
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(LibraryModel::SortRole);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->sortByColumn(LibraryModel::Started, Qt::DescendingOrder);
    filter_->setPlaceholderText(tr("Filter: label=gate meta.q=3 host=bench-1 since=2026-11-01"));
    filter_->setClearButtonEnabled(true);
    auto* reloadButton = new QPushButton(tr("Reload"), this);
    auto* top = new QHBoxLayout;
    top->addWidget(filter_, 1);
    top->addWidget(reloadButton);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(view_, 1);
    layout->addWidget(status_);
    connect(filter_, &QLineEdit::returnPressed, this, &LibraryPage::reload);
    connect(reloadButton, &QPushButton::clicked, this, &LibraryPage::reload);
    connect(view_, &QTableView::doubleClicked, this, [this](const QModelIndex& i) {
        emit openRecords({i.data(LibraryModel::PathRole).toString()});
    });
    reload();
}

QString LibraryPage::status() const
{
    return status_->text();
}

void LibraryPage::reload()
{
    auto query = parseQuery(filter_->text().toStdString());
    if (!query) {
        status_->setText(tr("Filter: %1").arg(QString::fromStdString(query.error())));
        return;
    }
    auto lib = Library::open(spec_);
    if (!lib) {
        status_->setText(QString::fromStdString(lib.error()));
        model_->setEntries({});
        return;
    }
    auto entries = (*lib)->list(*query, false, false);
    if (!entries) {
        status_->setText(QString::fromStdString(entries.error()));
        return;
    }
    const auto n = entries->size();
    model_->setEntries(std::move(*entries));
    status_->setText(tr("%n record(s) in %1", nullptr, int(n)).arg(QString::fromStdString((*lib)->location().display)));
}

}  // namespace jb

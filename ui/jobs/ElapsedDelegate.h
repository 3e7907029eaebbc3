#pragma once
// Paints "elapsed / timeout" as a bar filled to elapsed / timeout (JobTableModel's
// ProgressRole, coloured by BarColorRole) with the text over it; a cell without a fraction is
// painted as plain text.
#include <QStyledItemDelegate>

namespace jb {

class ElapsedDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    ElapsedDelegate(int progressRole, int colorRole, QObject* parent = nullptr);
    void paint(QPainter* p, const QStyleOptionViewItem& opt, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& opt, const QModelIndex& index) const override;

private:
    int progressRole_;
    int colorRole_;
};

}  // namespace jb

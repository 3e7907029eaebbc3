#pragma once
// Paints a verdict as a coloured badge (VerdictStyle); the model's tooltip explains it.
#include <QStyledItemDelegate>

namespace jb {

class VerdictDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    // verdictRole: the model role holding the verdict text (empty: none).
    explicit VerdictDelegate(int verdictRole, QObject* parent = nullptr);
    void paint(QPainter* p, const QStyleOptionViewItem& opt, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& opt, const QModelIndex& index) const override;

private:
    int role_;
};

}  // namespace jb

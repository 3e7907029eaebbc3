#pragma once
// The one banner every page shows a message in: a rounded box in the colours of its tone
// (Palette's toneColors), hidden while it has nothing to say. An Alert (an aborted run) is set
// a little larger than the page's text.
#include "common/Palette.h"

#include <QLabel>

namespace jb {

class Banner : public QLabel {
    Q_OBJECT
public:
    explicit Banner(QWidget* parent = nullptr);

    // Shows text in tone's colours; an empty text hides the banner.
    void setMessage(const QString& text, Tone tone);
    void clearMessage();
    Tone tone() const { return tone_; }
    // What a user reads: the text, or empty while hidden.
    QString message() const;

    // The look of a banner, for a label that is not one (a box in a panel).
    static QString styleSheetFor(Tone tone);

private:
    Tone tone_ = Tone::Neutral;
    QFont base_;
};

}  // namespace jb

#include "common/Banner.h"

namespace jb {

Banner::Banner(QWidget* parent) : QLabel(parent), base_(font())
{
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    hide();
}

QString Banner::styleSheetFor(Tone tone)
{
    const ToneColors c = toneColors(tone);
    return QStringLiteral("QLabel { background: %1; color: %2; border: 1px solid %3; border-radius: 4px;"
                          " padding: 6px 10px; }")
        .arg(c.fill.name(), c.ink.name(), c.border.name());
}

void Banner::setMessage(const QString& text, Tone tone)
{
    tone_ = tone;
    setText(text);
    setStyleSheet(styleSheetFor(tone));
    QFont f = base_;
    if (tone == Tone::Alert)
        f.setPointSizeF(f.pointSizeF() * 1.1);
    setFont(f);
    setVisible(!text.isEmpty());
}

void Banner::clearMessage()
{
    setText(QString());
    hide();
}

QString Banner::message() const
{
    return isHidden() ? QString() : text();
}

}  // namespace jb

#include "library/InspectorBridge.h"

#include "inspector/CompareView.h"
#include "inspector/InspectorPage.h"
#include "inspector/RecordTab.h"
#include "library/LibraryPage.h"

#include <QFileInfo>

namespace jb {

InspectorBridge::InspectorBridge(LibraryPage* library, InspectorPage* inspector, std::function<void()> showInspector,
                                 QObject* parent)
    : QObject(parent), inspector_(inspector), show_(std::move(showInspector))
{
    connect(library, &LibraryPage::openRecords, this, &InspectorBridge::open);
    connect(library, &LibraryPage::compareRecords, this, &InspectorBridge::compare);
    connect(inspector_, &InspectorPage::recordOpened, this, &InspectorBridge::tryFinish);
    connect(inspector_, &InspectorPage::openFailed, this, [this](const QString& path, const QString& message) {
        if (!pending_)
            return;
        const QString abs = QFileInfo(path).absoluteFilePath();
        if (abs != pending_->a && abs != pending_->b)
            return;
        pending_.reset();
        emit failed(tr("Cannot compare: %1").arg(message));
    });
}

void InspectorBridge::open(const QStringList& paths)
{
    inspector_->openRecords(paths);
    if (show_)
        show_();
}

void InspectorBridge::compare(const QString& a, const QString& b, const QString& counter)
{
    pending_ = Request{QFileInfo(a).absoluteFilePath(), QFileInfo(b).absoluteFilePath(), counter};
    // Not while opening: a record already open says so at once, and the next one opened would
    // then take the Compare tab's place in front.
    opening_ = true;
    open({a, b});
    opening_ = false;
    tryFinish();  // both were open already
}

int InspectorBridge::candidateIndex(const QString& path) const
{
    // The Compare tab's candidates are the loaded record tabs, in tab order.
    const int tab = inspector_->indexOfPath(path);
    if (tab < 0 || !inspector_->recordTab(tab)->isLoaded())
        return -1;
    int index = 0;
    for (int i = 0; i < tab; ++i)
        index += inspector_->recordTab(i)->isLoaded();
    return index;
}

void InspectorBridge::tryFinish()
{
    if (!pending_ || opening_)
        return;
    const int a = candidateIndex(pending_->a), b = candidateIndex(pending_->b);
    if (a < 0 || b < 0)
        return;
    const std::string counter = pending_->counter.toStdString();
    pending_.reset();
    inspector_->showCompare();
    inspector_->compareView()->compare(a, b, counter);
    if (show_)
        show_();
    emit compared();
}

}  // namespace jb

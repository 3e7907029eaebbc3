#pragma once
// What the Library page asks of the Inspector: a double-click opens a record there, and two
// selected records open as a comparison in the Inspector's own Compare tab (its CompareView,
// the one comparison of the dashboard). Opening is asynchronous (the Inspector loads off the
// GUI thread), so the comparison is made once both records have loaded; a record that cannot
// be read ends the request with failed().
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

namespace jb {

class InspectorPage;
class LibraryPage;

class InspectorBridge : public QObject {
    Q_OBJECT
public:
    // showInspector brings the Inspector's page forward (MainWindow::showPage); may be empty.
    InspectorBridge(LibraryPage* library, InspectorPage* inspector, std::function<void()> showInspector,
                    QObject* parent = nullptr);

    void open(const QStringList& paths);
    // Opens a and b (those already open stay) and compares them, A: a, B: b, on counter
    // (empty: the first counter both have).
    void compare(const QString& a, const QString& b, const QString& counter = {});
    bool pending() const { return bool(pending_); }

signals:
    void compared();
    void failed(const QString& message);

private:
    void tryFinish();
    int candidateIndex(const QString& path) const;  // -1: not open or not loaded yet

    struct Request {
        QString a, b, counter;
    };
    InspectorPage* inspector_;
    std::function<void()> show_;
    std::optional<Request> pending_;
    bool opening_ = false;
};

}  // namespace jb

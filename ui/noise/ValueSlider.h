#pragma once
// A slider over a list of round values ("0.15 W", "100 ms"), with its name on the left and
// the value in large type on the right, readable from the back of a lecture hall.
#include <QString>
#include <QWidget>

#include <functional>
#include <vector>

class QLabel;
class QSlider;

namespace jb {

class ValueSlider : public QWidget {
    Q_OBJECT
public:
    using Formatter = std::function<QString(double)>;
    ValueSlider(const QString& name, std::vector<double> values, double initial, Formatter format,
                QWidget* parent = nullptr);

    double value() const;
    void setValue(double v);         // the nearest value in the list
    void setValueAtLeast(double v);  // the smallest value >= v (the largest where none)
    const std::vector<double>& values() const { return values_; }
    QSlider* slider() const { return slider_; }
    QString valueText() const;

signals:
    void valueChanged(double value);

private:
    std::vector<double> values_;
    Formatter format_;
    QSlider* slider_;
    QLabel* value_;
};

}  // namespace jb

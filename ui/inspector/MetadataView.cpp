#include "inspector/MetadataView.h"

#include "common/Format.h"
#include "common/Palette.h"
#include <jb/record/RecordJson.h>

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QMenu>

#include <algorithm>

namespace jb {

namespace {

using fmt::q;

MetaNode leaf(const QString& key, const QString& value, const QString& tip = {}, bool alert = false)
{
    return MetaNode{key, value, tip, alert, {}};
}

QString ns(std::int64_t v)
{
    return fmt::duration(double(v) / 1e9);
}

}  // namespace

QString shellJoin(const std::vector<std::string>& argv)
{
    QStringList out;
    for (const std::string& a : argv) {
        QString s = q(a);
        const bool plain = !s.isEmpty() && std::all_of(s.begin(), s.end(), [](QChar c) {
            return c.isLetterOrNumber() || QStringLiteral("-_./:=,+@%").contains(c);
        });
        if (!plain)
            s = QLatin1Char('\'') + s.replace(QLatin1Char('\''), QStringLiteral("'\\''")) + QLatin1Char('\'');
        out << s;
    }
    return out.join(QLatin1Char(' '));
}

MetaNode jsonNode(const QString& key, const ojson& v)
{
    MetaNode n{key, {}, {}, false, {}};
    if (v.is_object()) {
        n.value = v.empty() ? QStringLiteral("{}") : QString();
        for (const auto& [k, x] : v.items())
            n.children.push_back(jsonNode(q(k), x));
    } else if (v.is_array()) {
        bool scalars = v.size() <= 8;
        for (const auto& x : v)
            scalars = scalars && !x.is_structured();
        if (scalars) {
            n.value = q(dumpJson(v, -1));
        } else {
            n.value = QStringLiteral("%1 items").arg(v.size());
            for (std::size_t i = 0; i < v.size(); ++i)
                n.children.push_back(jsonNode(QStringLiteral("[%1]").arg(i), v[i]));
        }
    } else if (v.is_string()) {
        n.value = q(v.get<std::string>());
    } else {
        n.value = q(dumpJson(v, -1));
    }
    return n;
}

std::vector<MetaNode> metadataNodes(const Record& r, const QString& path)
{
    std::vector<MetaNode> out;

    MetaNode rec{QStringLiteral("Record"), {}, {}, false, {}};
    rec.children.push_back(leaf(QStringLiteral("File"), path));
    rec.children.push_back(
        leaf(QStringLiteral("Label"), r.label ? q(*r.label) : QStringLiteral("(none: no --label)")));
    if (r.status) {
        rec.children.push_back(leaf(QStringLiteral("Status"), q(*r.status), {}, r.isAborted()));
    } else {
        rec.children.push_back(leaf(QStringLiteral("Status"),
                                    QStringLiteral("not stated (a reference harness record "
                                                   "holds only finished runs)")));
    }
    if (r.error)
        rec.children.push_back(leaf(QStringLiteral("Why it stopped"), q(*r.error), {}, true));
    rec.children.push_back(leaf(QStringLiteral("Tool"),
                                r.tool ? q(r.tool->first + " " + r.tool->second)
                                       : QStringLiteral("not stated: the reference harness")));
    rec.children.push_back(leaf(QStringLiteral("Rounds"), QString::number(r.rounds.size())));
    rec.children.push_back(leaf(QStringLiteral("Jobs the child decodes (jobs)"), QString::number(r.jobs),
                                QStringLiteral("The n of the child's \"ready <n>\" line")));
    rec.children.push_back(
        leaf(QStringLiteral("Passes over the jobs per round (k)"), QString::number(r.k),
             QStringLiteral("Each round sends \"go <k>\": the child decodes its jobs k times")));
    rec.children.push_back(leaf(QStringLiteral("Idle bracket (idle_s)"), fmt::duration(r.idle_s)));
    rec.children.push_back(leaf(QStringLiteral("Sampling period (sample_s)"), fmt::duration(r.sample_s)));
    out.push_back(std::move(rec));

    MetaNode child = leaf(QStringLiteral("Child command"), shellJoin(r.child));
    for (std::size_t i = 0; i < r.child.size(); ++i)
        child.children.push_back(leaf(QStringLiteral("argv[%1]").arg(i), q(r.child[i])));
    out.push_back(std::move(child));

    MetaNode host{QStringLiteral("Host"), {}, {}, false, {}};
    host.children.push_back(leaf(QStringLiteral("System"), q(r.host.system)));
    host.children.push_back(leaf(QStringLiteral("Machine"), q(r.host.machine)));
    host.children.push_back(
        leaf(QStringLiteral("CPUs (node_cpu)"),
             r.host.node_cpu_unknown ? QStringLiteral("unknown") : QString::number(r.host.node_cpu)));
    for (const auto& [k, v] : r.host.extra.items())
        host.children.push_back(jsonNode(q(k), v));
    out.push_back(std::move(host));

    MetaNode meta = jsonNode(QStringLiteral("Meta"), r.meta);
    if (meta.children.empty() && meta.value == QStringLiteral("{}"))
        meta.value = QStringLiteral("(empty)");
    out.push_back(std::move(meta));

    MetaNode counters{QStringLiteral("Counters"), QString::number(r.counters.size()), {}, false, {}};
    const std::vector<std::string> whole = r.wholeDeviceCounters();
    for (const std::string& spec : r.counters) {
        const bool isWhole = std::find(whole.begin(), whole.end(), spec) != whole.end();
        MetaNode c{q(spec),
                   isWhole ? QStringLiteral("whole device") : QStringLiteral("the child's own (task)"),
                   {},
                   false,
                   {}};
        for (const auto& [k, info] : r.counter_info)
            if (k == spec) {
                MetaNode i = jsonNode(QStringLiteral("Counter info"), info);
                c.children.push_back(std::move(i));
            }
        for (const auto& [k, f] : r.sampler) {
            if (k != spec)
                continue;
            MetaNode s{QStringLiteral("Sampler"), {}, {}, f.read_errors > 0, {}};
            s.children.push_back(leaf(QStringLiteral("Period"), fmt::duration(f.period_s)));
            s.children.push_back(leaf(QStringLiteral("Intervals"), QString::number(f.intervals)));
            s.children.push_back(leaf(QStringLiteral("Lateness p50 / p99 / max"),
                                      ns(f.lateness_p50_ns) + QStringLiteral(" / ") + ns(f.lateness_p99_ns) +
                                          QStringLiteral(" / ") + ns(f.lateness_max_ns),
                                      QStringLiteral("How late each read came after its deadline")));
            s.children.push_back(leaf(QStringLiteral("Missed deadlines"), QString::number(f.missed_deadlines),
                                      QStringLiteral("Reads that came after the next one was due")));
            s.children.push_back(
                leaf(QStringLiteral("Read errors"), QString::number(f.read_errors), {}, f.read_errors > 0));
            if (f.last_error)
                s.children.push_back(leaf(QStringLiteral("Last error"), q(*f.last_error), {}, true));
            s.children.push_back(
                leaf(QStringLiteral("Update cadence"),
                     f.update_cadence_ms ? fmt::duration(*f.update_cadence_ms / 1000.0)
                                         : QStringLiteral("unknown"),
                     QStringLiteral("Median time between reads that saw the counter change")));
            c.children.push_back(std::move(s));
        }
        if (const auto* iv = r.samplesOf(spec)) {
            QString v = QStringLiteral("%1 intervals").arg(iv->size());
            if (!iv->empty())
                v += QStringLiteral(" over ") +
                    fmt::duration(double(iv->back().t1_ns - iv->front().t0_ns) / 1e9);
            c.children.push_back(leaf(QStringLiteral("Raw samples"), v));
        } else if (isWhole) {
            c.children.push_back(leaf(QStringLiteral("Raw samples"), QStringLiteral("none in the record")));
        }
        counters.children.push_back(std::move(c));
    }
    out.push_back(std::move(counters));

    if (!r.extra.empty()) {
        MetaNode extra = jsonNode(QStringLiteral("Other keys"), r.extra);
        extra.tip = QStringLiteral(
            "Keys neither the reference harness nor JouleBench writes, kept as they were");
        out.push_back(std::move(extra));
    }
    return out;
}

namespace {

void addNode(QTreeWidgetItem* parent, QTreeWidget* tree, const MetaNode& n, int depth)
{
    auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree);
    item->setText(0, n.key);
    item->setText(1, n.value);
    item->setToolTip(0, n.tip.isEmpty() ? n.key : n.tip);
    item->setToolTip(1, n.tip.isEmpty() ? n.value : n.tip);
    if (depth == 0) {
        QFont f = item->font(0);
        f.setBold(true);
        item->setFont(0, f);
    }
    if (n.alert) {
        for (int c = 0; c < 2; ++c) {
            item->setForeground(c, palette::errorText());
            QFont f = item->font(c);
            f.setBold(true);
            item->setFont(c, f);
        }
    }
    for (const MetaNode& c : n.children)
        addNode(item, tree, c, depth + 1);
    // Open the sections and the counters; leave long JSON collapsed.
    item->setExpanded(depth == 0 || (depth <= 2 && n.children.size() <= 12));
}

}  // namespace

MetadataView::MetadataView(QWidget* parent) : QTreeWidget(parent)
{
    setObjectName(QStringLiteral("metadataTree"));
    setColumnCount(2);
    setHeaderLabels({tr("Field"), tr("Value")});
    setAlternatingRowColors(true);
    setUniformRowHeights(true);
    setWordWrap(false);
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header()->setStretchLastSection(true);
    setContextMenuPolicy(Qt::CustomContextMenu);
    connect(this, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        QTreeWidgetItem* item = itemAt(at);
        if (!item)
            return;
        QMenu menu(this);
        menu.addAction(tr("Copy value"), this, [item] { QApplication::clipboard()->setText(item->text(1)); });
        menu.addAction(tr("Copy field and value"), this, [item] {
            QApplication::clipboard()->setText(item->text(0) + QStringLiteral(": ") + item->text(1));
        });
        menu.exec(viewport()->mapToGlobal(at));
    });
}

void MetadataView::setRecord(const Record& r, const QString& path)
{
    clear();
    for (const MetaNode& n : metadataNodes(r, path))
        addNode(nullptr, this, n, 0);
}

QString MetadataView::valueAt(const QString& section, const QString& key) const
{
    for (int i = 0; i < topLevelItemCount(); ++i) {
        QTreeWidgetItem* s = topLevelItem(i);
        if (s->text(0) != section)
            continue;
        if (key.isEmpty())
            return s->text(1);
        for (int j = 0; j < s->childCount(); ++j)
            if (s->child(j)->text(0) == key)
                return s->child(j)->text(1);
    }
    return {};
}

}  // namespace jb

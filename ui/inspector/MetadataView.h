#pragma once
// Everything a record holds besides its rounds and samples, as a tree: the record's own facts
// (file, label, status and why it aborted, tool), the child command, the host, `meta`, each
// counter with its counter_info and the sampler's figures, and keys neither the reference nor
// JouleBench knows. metadataNodes() is the content (tested without a tree), MetadataView shows it.
#include <jb/record/Record.h>

#include <QString>
#include <QTreeWidget>

#include <vector>

namespace jb {

struct MetaNode {
    QString key;
    QString value;
    QString tip;
    bool alert = false;  // shown in red: an aborted run, read errors
    std::vector<MetaNode> children;
};

std::vector<MetaNode> metadataNodes(const Record& r, const QString& path);
// A JSON value as nodes: objects and arrays as children, scalars as their JSON text.
MetaNode jsonNode(const QString& key, const ojson& v);
// argv as a shell would need it typed ('quoted' where needed).
QString shellJoin(const std::vector<std::string>& argv);

class MetadataView : public QTreeWidget {
    Q_OBJECT
public:
    explicit MetadataView(QWidget* parent = nullptr);
    void setRecord(const Record& r, const QString& path);
    // "Section/Key" -> value, for tests (first match).
    QString valueAt(const QString& section, const QString& key) const;
};

}  // namespace jb

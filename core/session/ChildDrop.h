#pragma once
// How an interleaved run (several children) went, as run: a leaf header, so RunSource and
// core/run's MeasureRun tell it without including the whole Session.
#include <QMetaType>

#include <optional>
#include <string>
#include <vector>

namespace jb {

// Several children with plan.keep_going: a child that failed or timed out and was dropped, at
// which block (1-based, warm-up blocks counted, as the blocks' order) and why.
struct ChildDrop {
    int block = 0;
    std::string reason;
};

// An interleaved run's course: per child (plan order) how it was dropped, or none; and the
// blocks' order as run (order[b][k]: the k-th child of block b; a dropped child leaves the blocks
// after its drop). Session::setRan, RunSource::setRan: emitted just before finishedSet.
struct SetCourse {
    std::vector<std::optional<ChildDrop>> drops;
    std::vector<std::vector<int>> order;
};

}  // namespace jb

Q_DECLARE_METATYPE(jb::SetCourse)

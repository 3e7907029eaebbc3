#pragma once
// A moment of the run for the chart (shading) and the status line: an idle bracket or a busy
// window starting or ending. A leaf header (Qt's meta type only), so whatever shows or
// simulates a run's phases (SimModel, LiveSim, RunSource, RunState, ReplaySource) includes
// this and not the whole Session. Registered with qRegisterMetaType by Session and RunSource:
// it crosses threads in queued signals.
#include <QMetaType>

#include <cstdint>

namespace jb {

struct PhaseEvent {
    enum Kind { IdleStarted, IdleEnded, BusyStarted, BusyEnded };
    Kind kind = IdleStarted;
    int round = -1;  // 0-based; -1 for the first idle bracket
    std::int64_t t_ns = 0;
};

}  // namespace jb

Q_DECLARE_METATYPE(jb::PhaseEvent)

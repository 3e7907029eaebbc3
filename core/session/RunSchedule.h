#pragma once
// The course of a run as plain data: for several children (an interleaved run), the rounds in
// run order as {block, child}, the blocks' order as run, and each child's drop (--keep-going).
// No clock, no process, no Qt object: Session steps it as its children answer, and a test
// steps it by hand (tests/session/tst_runschedule).
#include <jb/session/ChildDrop.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jb {

class RunSchedule {
public:
    // One child: no interleaving, no blocks; only its drop slot (drops().size() == 1).
    RunSchedule() = default;
    // `children` children over `blocks` blocks (warm-up blocks included, first), in the
    // balanced order of stats/Paired (balancedOrder, seeded by `seed`).
    RunSchedule(int children, int blocks, int warmup_blocks, std::uint64_t seed);

    bool interleaved() const { return interleaved_; }
    // Rounds in run order (interleaved; 0 for one child: its plan says how many).
    int size() const { return int(rounds_.size()); }
    // The child and the block (0-based, warm-up blocks first) of round `round` in run order;
    // 0 out of range.
    int childOf(int round) const;
    int blockOf(int round) const;
    bool isWarmup(int round) const;

    bool dropped(int child) const;
    bool allDropped() const;
    int liveChildren() const;
    // Drops `child` with `reason`. `at` is the round under way (or the next one), which names
    // the block of the drop (1-based in ChildDrop); the child's rounds from `keep_until` on
    // leave the schedule (the rounds before it, done or whose done line came, stay), and the
    // blocks' order becomes the order as run. Returns the drop.
    const ChildDrop& drop(int child, std::size_t at, std::size_t keep_until, std::string reason);

    const std::vector<std::vector<int>>& order() const { return order_; }
    const std::vector<std::optional<ChildDrop>>& drops() const { return drops_; }
    SetCourse course() const { return {drops_, order_}; }

private:
    bool interleaved_ = false;
    int warmup_blocks_ = 0;
    std::vector<std::array<int, 2>> rounds_;            // {block, child} in run order
    std::vector<std::vector<int>> order_;               // per block, as run
    std::vector<std::optional<ChildDrop>> drops_ = {std::nullopt};  // per child, plan order
};

}  // namespace jb

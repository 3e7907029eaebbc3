#pragma once
// The comparison of an interleaved run (measure -- A ::: B) while it goes on: each finished
// round is put to its child by the plan's block order, and the comparison is the one
// record/Interleaved writes at the end, over the blocks finished so far. The Measure page's
// live table and the CLI's progress read the same figures.
#include <jb/record/Interleaved.h>
#include <jb/session/Plan.h>

#include <string>
#include <vector>

namespace jb {

class LiveComparison {
public:
    // baseline: index into plan.children; counter: empty for the first whole-device counter.
    explicit LiveComparison(const Plan& plan, int baseline = 0, std::string counter = {}, int resamples = 2000);

    // Round `index` of the run (Session::roundFinished's numbering: warm-up blocks first).
    void addRound(int index, const Round& round);
    // The child that runs round `index` (the plan's order); -1 past the plan.
    int childOfRound(int index) const;
    bool isWarmup(int index) const { return index >= 0 && index < warmup_ * int(names_.size()); }

    int children() const { return int(names_.size()); }
    const std::vector<std::string>& names() const { return names_; }
    const std::vector<std::vector<int>>& order() const { return order_; }
    // Blocks past the warm-up in which every child has finished its round.
    int blocksDone() const;
    // interleavedComparison over the rounds so far (children's status "running").
    ojson comparison() const;
    // The comparison's input over these records (one per child, plan order): names, block
    // order, warm-up, seeds and baseline from the plan. The one builder of the live table's
    // input and of the comparison.json a finished run writes (MeasureRun).
    InterleavedInput input(std::vector<Record> records, int resamples = 10000) const;

private:
    std::vector<std::string> names_;
    std::vector<std::vector<std::string>> argv_;
    std::vector<std::vector<int>> order_;
    int warmup_ = 0;
    std::uint64_t order_seed_ = 1;
    int baseline_ = 0;
    std::string counter_;
    int resamples_ = 2000;
    std::vector<std::vector<Round>> rounds_;  // per child, past the warm-up, in block order
};

}  // namespace jb

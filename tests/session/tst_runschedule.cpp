// The course of an interleaved run as plain data (core/session/RunSchedule): the rounds in run
// order follow the balanced order, warm-up blocks come first, and a drop (--keep-going) takes
// the dropped child's rounds to come out, keeps what ran, names the block it happened in and
// leaves the blocks' order as run. Stepped by hand: no clock, no child process.
#include <jb/session/RunSchedule.h>
#include <jb/stats/Paired.h>

#include <QtTest>

using jb::RunSchedule;

namespace {

std::vector<int> childrenOf(const RunSchedule& s)
{
    std::vector<int> c;
    for (int i = 0; i < s.size(); ++i)
        c.push_back(s.childOf(i));
    return c;
}

int roundsOf(const RunSchedule& s, int child)
{
    int n = 0;
    for (int i = 0; i < s.size(); ++i)
        n += s.childOf(i) == child ? 1 : 0;
    return n;
}

}  // namespace

class TestRunSchedule : public QObject {
    Q_OBJECT
private slots:
    void oneChildHasOneDropSlotAndNoRounds()
    {
        const RunSchedule s;
        QVERIFY(!s.interleaved());
        QCOMPARE(s.size(), 0);
        QCOMPARE(s.drops().size(), std::size_t(1));
        QVERIFY(!s.dropped(0));
        QCOMPARE(s.liveChildren(), 1);
        QCOMPARE(s.childOf(3), 0);
        QVERIFY(!s.isWarmup(0));
    }

    void roundsFollowTheBalancedOrder()
    {
        const int children = 3, blocks = 5, warmup = 1;
        const RunSchedule s(children, blocks, warmup, 7);
        const auto order = jb::balancedOrder(children, blocks, 7);
        QCOMPARE(s.order(), order);
        QCOMPARE(s.size(), children * blocks);
        int i = 0;
        for (std::size_t b = 0; b < order.size(); ++b)
            for (int c : order[b]) {
                QCOMPARE(s.childOf(i), c);
                QCOMPARE(s.blockOf(i), int(b));
                QCOMPARE(s.isWarmup(i), int(b) < warmup);
                ++i;
            }
        // Out of range: neither a child nor a warm-up round.
        QCOMPARE(s.childOf(-1), 0);
        QCOMPARE(s.childOf(s.size()), 0);
        QVERIFY(!s.isWarmup(s.size()));
        QCOMPARE(s.liveChildren(), children);
    }

    void dropTakesOutOnlyTheRoundsToCome()
    {
        RunSchedule s(3, 4, 0, 11);
        const std::vector<int> before = childrenOf(s);
        // Child 1 fails during round 5 (0-based, in block 1): rounds 0..4 stay as they were.
        const int victim = 1;
        const std::size_t at = 5;
        const jb::ChildDrop& d = s.drop(victim, at, at, "exit 3");
        QCOMPARE(d.block, 2);  // 1-based: round 5 is in the second block of three rounds
        QCOMPARE(d.reason, std::string("exit 3"));
        QVERIFY(s.dropped(victim));
        QCOMPARE(s.liveChildren(), 2);
        QVERIFY(!s.allDropped());
        const std::vector<int> after = childrenOf(s);
        for (std::size_t i = 0; i < at; ++i)
            QCOMPARE(after[i], before[i]);
        for (std::size_t i = at; i < after.size(); ++i)
            QVERIFY(after[i] != victim);
        int victim_before = 0;
        for (std::size_t i = 0; i < at; ++i)
            victim_before += before[i] == victim ? 1 : 0;
        QCOMPARE(roundsOf(s, victim), victim_before);
        QCOMPARE(roundsOf(s, 0), 4);
        QCOMPARE(roundsOf(s, 2), 4);
        // The blocks' order as run: the victim is in no block after its drop.
        for (std::size_t b = 2; b < s.order().size(); ++b)
            QVERIFY(std::find(s.order()[b].begin(), s.order()[b].end(), victim) == s.order()[b].end());
        // course() carries the same drops and order as the accessors.
        const jb::SetCourse c = s.course();
        QCOMPARE(c.order, s.order());
        QVERIFY(c.drops[std::size_t(victim)].has_value());
        QCOMPARE(c.drops[std::size_t(victim)]->block, 2);
    }

    void aRoundWhoseDoneCameStays()
    {
        // The victim's own round is under way and its done line came (the post bracket is not
        // in yet): that round stays, only later ones go.
        RunSchedule s(2, 3, 0, 1);
        int at = -1;
        for (int i = 0; i < s.size() && at < 0; ++i)
            if (s.childOf(i) == 1 && s.blockOf(i) == 1)
                at = i;
        QVERIFY(at >= 0);
        s.drop(1, std::size_t(at), std::size_t(at) + 1, "timeout");
        QCOMPARE(s.childOf(at), 1);
        QCOMPARE(roundsOf(s, 1), 2);  // block 0's and the one whose done came
        QCOMPARE(s.size(), 3 + 2);
    }

    void everyChildDropped()
    {
        RunSchedule s(2, 2, 0, 3);
        s.drop(0, 0, 0, "a");
        QVERIFY(!s.allDropped());
        s.drop(1, 0, 0, "b");
        QVERIFY(s.allDropped());
        QCOMPARE(s.size(), 0);
        QVERIFY(s.order().empty());  // trailing empty blocks are taken away
        QCOMPARE(s.liveChildren(), 0);
    }

    void dropAtTheEndNamesTheLastBlock()
    {
        RunSchedule s(2, 3, 1, 5);
        const std::size_t end = std::size_t(s.size());
        const jb::ChildDrop& d = s.drop(0, end + 4, end, "late");
        QCOMPARE(d.block, 3);
        QCOMPARE(s.size(), int(end));  // nothing was to come
    }
};

QTEST_APPLESS_MAIN(TestRunSchedule)
#include "tst_runschedule.moc"

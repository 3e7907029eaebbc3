// JouleBench's own record keys, typed (core/record/RecordExtras): what the session sets reads back
// as the same values, a key set again keeps its place in the file, a wrong value is an error
// naming its JSON path, and an interleaved run's saved record (tests/fixtures/comparison/low.json)
// reads as the run wrote it.
#include <jb/record/RecordExtras.h>
#include <jb/record/RecordJson.h>

#include <QtTest>

using jb::ojson;

namespace {

jb::Round roundWithFigures(std::int64_t decodes)
{
    jb::Round r;
    r.decodes = decodes;
    r.window_ns = 2'000'000'000;
    return r;
}

std::vector<std::string> keysOf(const ojson& o)
{
    std::vector<std::string> k;
    for (const auto& [key, v] : o.items())
        k.push_back(key);
    return k;
}

}  // namespace

class TestRecordExtras : public QObject {
    Q_OBJECT
private slots:
    void setThenReadGivesTheValues();
    void aKeySetAgainKeepsItsPlace();
    void wrongValuesNameTheirPath();
    void integrityPerCounter();
    void savedInterleavedRecordReads();
};

void TestRecordExtras::setThenReadGivesTheValues()
{
    jb::Record r;
    r.counters = {"sim"};
    QVERIFY(readExtras(r)->warnings.empty());  // nothing set: empty values
    QVERIFY(!readExtras(r)->interleaved);
    jb::setStartedAt(r, "2026-12-06T13:00:00.000Z");
    jb::setWarnings(r, {"round 1: sim: idle drift", "a counter read failed"});
    jb::InterleavedInfo in;
    in.name = "high";
    in.index = 1;
    in.children = {"low", "high"};
    in.warmup_blocks = 2;
    in.order_seed = 7;
    in.dropped = jb::DroppedChild{3, "it exited with status 1"};
    jb::setInterleaved(r, in);
    jb::setWarmupRounds(r, {roundWithFigures(8), roundWithFigures(9)});

    // Through the file and back, as a saved record is read.
    auto back = jb::parseRecord(jb::dumpRecord(r));
    QVERIFY2(back, back ? "" : back.error().c_str());
    const auto x = jb::readExtras(back.value());
    QVERIFY2(x, x ? "" : x.error().c_str());
    QCOMPARE(x->started_at.value_or(""), std::string("2026-12-06T13:00:00.000Z"));
    QCOMPARE(x->warnings.size(), std::size_t(2));
    QCOMPARE(x->warnings[1], std::string("a counter read failed"));
    QVERIFY(x->interleaved);
    QCOMPARE(x->interleaved->name, std::string("high"));
    QCOMPARE(x->interleaved->index, 1);
    QCOMPARE(x->interleaved->children, (std::vector<std::string>{"low", "high"}));
    QCOMPARE(x->interleaved->warmup_blocks, 2);
    QCOMPARE(x->interleaved->order_seed, std::uint64_t(7));
    QVERIFY(x->interleaved->dropped);
    QCOMPARE(x->interleaved->dropped->block, 3);
    QCOMPARE(x->interleaved->dropped->reason, std::string("it exited with status 1"));
    QVERIFY(x->warmup_rounds);
    QCOMPARE(x->warmup_rounds->size(), std::size_t(2));
    QCOMPARE(x->warmup_rounds->at(1).decodes, std::int64_t(9));

    jb::setWarnings(r, {});  // none: no key
    QVERIFY(!r.extra.contains("warnings"));
}

void TestRecordExtras::aKeySetAgainKeepsItsPlace()
{
    jb::Record r;
    r.extra["exec"] = "first";
    jb::setStartedAt(r, "2026-12-06T13:00:00.000Z");
    r.extra["counter_profiles"] = ojson::object();
    jb::setWarnings(r, {"w"});
    jb::setStartedAt(r, "2026-12-06T14:00:00.000Z");
    jb::setWarnings(r, {"w", "v"});
    QCOMPARE(keysOf(r.extra), (std::vector<std::string>{"exec", "started_at", "counter_profiles", "warnings"}));
    QCOMPARE(r.extra["started_at"].get<std::string>(), std::string("2026-12-06T14:00:00.000Z"));
}

void TestRecordExtras::wrongValuesNameTheirPath()
{
    auto errorOf = [](const char* key, const ojson& value) {
        jb::Record r;
        r.extra[key] = value;
        const auto x = jb::readExtras(r);
        return x ? std::string() : x.error();
    };
    const std::string e1 = errorOf("interleaved", {{"name", "a"}, {"index", "two"}, {"children", {"a"}}});
    QVERIFY2(e1.find("$.interleaved.index") != std::string::npos, e1.c_str());
    const std::string e2 = errorOf("warnings", "one warning");
    QVERIFY2(e2.find("$.warnings") != std::string::npos, e2.c_str());
    const std::string e3 = errorOf("started_at", 12);
    QVERIFY2(e3.find("$.started_at") != std::string::npos, e3.c_str());
    const std::string e4 = errorOf("interleaved", {{"name", "a"}, {"index", 0}, {"children", {"a"}}, {"dropped", {{"block", 1}}}});
    QVERIFY2(e4.find("$.interleaved.dropped") != std::string::npos && e4.find("reason") != std::string::npos, e4.c_str());
    const std::string e5 = errorOf("warmup_rounds", ojson::array({ojson::object({{"decodes", "many"}})}));
    QVERIFY2(e5.find("$.warmup_rounds[0]") != std::string::npos, e5.c_str());
}

void TestRecordExtras::integrityPerCounter()
{
    jb::Round round;
    QVERIFY(!jb::hasIntegrity(round));
    QVERIFY(jb::readIntegrity(round)->empty());
    jb::setIntegrity(round, "rapl", jb::IdleDrift{0.25, 0.1, true});
    jb::setIntegrity(round, "nvml:0", jb::IdleDrift{-0.01, 0.2, false});
    jb::setIntegrity(round, "rapl", jb::IdleDrift{0.5, 0.1, true});  // replaced, in its place
    QVERIFY(jb::hasIntegrity(round));
    const auto i = jb::readIntegrity(round, "$.rounds[2]");
    QVERIFY2(i, i ? "" : i.error().c_str());
    QCOMPARE(i->size(), std::size_t(2));
    QCOMPARE(i->at(0).first, std::string("rapl"));
    QCOMPARE(i->at(0).second.drift_w, 0.5);
    QVERIFY(i->at(0).second.flagged);
    QCOMPARE(i->at(1).first, std::string("nvml:0"));
    QCOMPARE(i->at(1).second.noise_w, 0.2);
    QVERIFY(!i->at(1).second.flagged);

    round.extra["integrity"]["rapl"]["drift_w"] = "high";
    const auto bad = jb::readIntegrity(round, "$.rounds[2]");
    QVERIFY(!bad);
    QVERIFY2(bad.error().find("$.rounds[2].integrity.rapl.drift_w") != std::string::npos, bad.error().c_str());
}

void TestRecordExtras::savedInterleavedRecordReads()
{
    auto r = jb::loadRecord(JB_FIXTURES "/comparison/low.json");
    QVERIFY2(r, r ? "" : r.error().c_str());
    const auto x = jb::readExtras(r.value());
    QVERIFY2(x, x ? "" : x.error().c_str());
    QCOMPARE(x->started_at.value_or(""), std::string("2026-12-01T14:49:32.344Z"));
    QVERIFY(x->interleaved);
    QCOMPARE(x->interleaved->name, std::string("low"));
    QCOMPARE(x->interleaved->children, (std::vector<std::string>{"low", "high"}));
    QCOMPARE(x->interleaved->warmup_blocks, 1);
    QVERIFY(!x->interleaved->dropped);
    QCOMPARE(x->warmup_rounds.value_or(std::vector<jb::Round>{}).size(), std::size_t(1));
    const auto i = jb::readIntegrity(r->rounds.at(0), "$.rounds[0]");
    QVERIFY2(i, i ? "" : i.error().c_str());
    QCOMPARE(i->size(), std::size_t(1));
    QCOMPARE(i->at(0).first, std::string("rapl"));
    QVERIFY(!i->at(0).second.flagged);
    QVERIFY(std::abs(i->at(0).second.drift_w - -0.7865327364016075) < 1e-12);

    // Set again with what was read: the file's bytes do not move.
    jb::Record again = r.value();
    jb::setInterleaved(again, *x->interleaved);
    jb::setWarmupRounds(again, *x->warmup_rounds);
    jb::setStartedAt(again, *x->started_at);
    QCOMPARE(jb::dumpRecord(again), jb::dumpRecord(r.value()));
}

QTEST_GUILESS_MAIN(TestRecordExtras)
#include "tst_recordextras.moc"

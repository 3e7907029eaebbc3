// `joulebench-cli plan`: idle seconds, k and rounds that reach a verdict in a chosen share of
// rounds, from a record's idle noise and marginal power (or from figures typed in). The
// arithmetic is core/noise (docs/PLANNER.md); this file only reads flags and prints. A record
// from a coarse counter gets the sampling period and round length the counter needs instead
// (jb::cadencePlan): its idle "noise" is the counter's quantisation.
#include "CliCommon.h"
#include "Commands.h"

#include <jb/noise/CadencePlan.h>
#include <jb/noise/Planner.h>
#include <jb/noise/RecordNoise.h>
#include <jb/noise/Resolution.h>
#include <jb/noise/RoundModel.h>
#include <jb/noise/SampledCounter.h>
#include <jb/record/RecordJson.h>
#include <jb/stats/CounterResolution.h>
#include <jb/stats/Paired.h>

#include <nlohmann/json.hpp>

#include <QCommandLineParser>

#include <cmath>
#include <optional>

namespace jbcli {

namespace {

using ojson = nlohmann::ordered_json;

QString pct(double share)
{
    return QString::number(share * 100.0, 'f', share > 0.999 && share < 1.0 ? 2 : 1) + QLatin1Char('%');
}

ojson optionalJson(const std::optional<double>& v)
{
    return v ? ojson(*v) : ojson(nullptr);
}

}  // namespace

// The comparative question: interleaved blocks that resolve `delta` between two workloads whose
// rounds vary as the plan's rounds would (else as the record's did).
static std::optional<std::pair<jb::BlocksPlan, double>> compareBlocks(const jb::PlanOutcome& o,
                                                               const std::optional<jb::RecordNoise>& noise, double delta)
{
    double cv = o.reachable ? o.rel_sd_per_round : 0.0;
    if (!(cv > 0) && noise && noise->j_per_decode_rel_spread)
        cv = *noise->j_per_decode_rel_spread;
    const auto bp = jb::blocksToResolve(cv, delta);
    if (!bp)
        return std::nullopt;
    return std::make_pair(*bp, cv);
}

int cmdPlan(const QStringList& args)
{
    const QString cmd = args.value(0);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Plans a run from a record's idle noise: the idle seconds, k and rounds that reach a verdict\n"
        "(ratio = marginal W / idle sd: clean >= 10, relative-only >= 3, noisy >= 1) in a chosen share\n"
        "of rounds, in the least total time, and the smallest marginal power and energy the idle noise\n"
        "resolves at each verdict. Without a record, give --idle-sd-w, --marginal-w and --busy-s-per-k.\n"
        "A record from a coarse counter (too few updates in its busy windows) gets the sampling period\n"
        "and round length the counter needs instead: its idle sd is the counter's quantisation.\n"
        "Exit status: 0 a plan, 1 no settings reach the target or the counter is coarse (the output\n"
        "says what would be needed), 2 bad flags or an unreadable record. The arithmetic: docs/PLANNER.md."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("RECORD"), QStringLiteral("A JouleBench or reference record (JSON)."),
                            QStringLiteral("[RECORD]"));
    auto opt = [&](const char* name, const char* help, const char* value) {
        p.addOption({QString::fromLatin1(name), QString::fromLatin1(help), QString::fromLatin1(value)});
    };
    opt("target", "Verdict to reach: clean, relative-only or noisy (default clean).", "VERDICT");
    opt("confidence", "Share of rounds that should reach it, between 0.5 and 1 (default 0.9).", "P");
    opt("marginal-w", "Expected marginal power in W (default: the median of the record's rounds).", "W");
    opt("counter", "The record's whole-device counter to read (default: its first).", "SPEC");
    opt("idle-sd-w", "Idle power sd per sample interval in W (default: pooled from the record's idle brackets).", "W");
    opt("busy-s-per-k", "Busy window per unit of k in seconds (default: the record's median window / k).", "S");
    opt("sample-ms",
        "Sampling period in ms (default: the record's, else 100). The idle sd stays the record's "
        "unless --idle-sd-w is given: measure the noise at the new period first.",
        "MS");
    opt("ci-width", "Relative half-width the median J/decode should be known to at 95% (default 0.05).", "FRAC");
    opt("min-rounds", "Fewest rounds to plan (default 6).", "N");
    opt("min-idle-intervals", "Fewest sample intervals in an idle bracket (default 5).", "N");
    opt("max-idle-s", "Longest idle bracket to consider (default 600).", "S");
    opt("max-busy-s", "Longest busy window to consider (default 600).", "S");
    opt("resolve-ratio", "Also say how many interleaved blocks (measure -- A ::: B) find a difference of this "
                         "fraction between two such workloads at 95% with 80% power (e.g. 0.05).", "FRAC");
    p.addOption({QStringLiteral("json"), QStringLiteral("Print JSON instead of text.")});
    if (const int rc = parseArgs(p, args); rc >= 0)
        return rc;
    const QStringList pos = p.positionalArguments();
    if (pos.size() > 1)
        return usageError(cmd, QStringLiteral("takes one record, got %1 arguments: %2").arg(pos.size()).arg(pos.join(QLatin1Char(' '))));

    NumberFlags f(p);
    const auto confidence = f.number("confidence", 0.5, 1.0, true);
    const auto marginalW = f.number("marginal-w", 0.0, 1e300);
    const auto idleSdW = f.number("idle-sd-w", 0.0, 1e300);
    const auto perK = f.number("busy-s-per-k", 0.0, 1e300, true);
    const auto sampleMs = f.number("sample-ms", 0.0, 1e300, true);
    const auto ciWidth = f.number("ci-width", 0.0, 1e300, true);
    const auto minRounds = f.integer("min-rounds", 1, 100000);
    const auto minIdle = f.integer("min-idle-intervals", 2, 10000000);
    const auto maxIdle = f.number("max-idle-s", 0.0, 1e300, true);
    const auto maxBusy = f.number("max-busy-s", 0.0, 1e300, true);
    const auto resolveRatio = f.number("resolve-ratio", 0.0, 10.0, true);
    if (!f.error.isEmpty())
        return usageError(cmd, f.error);
    if (confidence && *confidence >= 1.0)
        return usageError(cmd, QStringLiteral("--confidence must be below 1, not '%1'").arg(p.value(QStringLiteral("confidence"))));
    const std::string targetWord = p.isSet(QStringLiteral("target")) ? toStd(p.value(QStringLiteral("target")))
                                                                      : jb::verdictName(jb::Verdict::Clean);
    const std::optional<jb::Verdict> target = jb::parseVerdict(targetWord);
    if (!target || !jb::verdictThreshold(*target))
        return usageError(cmd, QStringLiteral("--target takes clean, relative-only or noisy, not '%1'").arg(toQ(targetWord)));
    if (pos.isEmpty() && !(idleSdW && marginalW && perK))
        return usageError(cmd, QStringLiteral("give a RECORD, or all of --idle-sd-w, --marginal-w and --busy-s-per-k"));
    if (pos.isEmpty() && p.isSet(QStringLiteral("counter")))
        return usageError(cmd, QStringLiteral("--counter picks a record's counter: give a RECORD"));

    jb::PlanInputs in;
    std::optional<jb::Record> record;
    std::optional<jb::RecordNoise> noise;
    if (!pos.isEmpty()) {
        auto r = jb::loadRecord(toStd(pos.first()));
        if (!r)
            return usageError(cmd, toQ(r.error()));
        record = std::move(*r);
        const std::string spec = p.isSet(QStringLiteral("counter")) ? toStd(p.value(QStringLiteral("counter"))) : std::string();
        auto n = jb::recordNoise(*record, spec);
        if (!n)
            return usageError(cmd, pos.first() + QStringLiteral(": ") + toQ(n.error()));
        noise = std::move(*n);
        in = jb::planInputsFrom(*noise, *record);
    }
    // The counter's profile (the record's counter_profiles): rounds and brackets of at least 10
    // of its updates, and for a counter that samples, how many rounds reach +-10%.
    // Only where the record's cadence rule takes the profile's period (a measured profile, or a
    // default where the record shows nothing better: jb::cadenceOf).
    std::optional<jb::CounterProfile> profile = record ? jb::profileOf(*record, noise->spec)
                                                       : std::optional<jb::CounterProfile>();
    if (profile && jb::cadenceOf(*record, noise->spec).cadence_source != "profile")
        profile.reset();
    if (profile) {
        const jb::ProfileNeeds needs = jb::profileNeeds(*profile);
        in.min_busy_s = needs.min_busy_s;
        in.min_idle_s = needs.min_idle_s;
    }
    auto profileLine = [&]() -> QString {
        if (!profile || !(profile->update_period_ms > 0))
            return {};
        return QStringLiteral(
                   "%1 takes a new value every %2 ms (%3): rounds and idle brackets of at least %4 s (%5 "
                   "updates)")
            .arg(toQ(noise->spec), num(profile->update_period_ms),
                 profile->measured ? QStringLiteral("measured profile")
                                   : QStringLiteral("its kind's default profile"),
                 num(in.min_busy_s), QString::number(int(jb::kCoarseUpdates)));
    };
    auto samplingJson = [&](double busy_s) -> ojson {
        if (!profile)
            return nullptr;
        const auto sr = jb::samplingRounds(noise->spec, *profile, busy_s);
        if (!sr)
            return nullptr;
        return {{"busy_s", busy_s},
                {"rel_sd", sr->sd},
                {"rounds_for_10_percent", sr->rounds},
                {"text", sr->text}};
    };
    if (idleSdW)
        in.idle_sd_w = *idleSdW;
    if (marginalW)
        in.marginal_w = *marginalW;
    if (perK)
        in.busy_s_per_k = *perK;
    if (sampleMs)
        in.period_s = *sampleMs / 1000.0;
    else if (!record)
        in.period_s = 0.1;
    if (sampleMs || idleSdW)
        in.allan.clear();  // the record's Allan curve belongs to its own period and noise
    // The record's figures, for --json.
    auto sourceJson = [&]() -> ojson {
        if (!record)
            return nullptr;
        return {{"record", toStd(pos.first())},
                {"counter", noise->spec},
                {"idle_from", noise->source},
                {"idle_brackets", noise->brackets},
                {"idle_intervals", noise->intervals},
                {"idle_mean_w", noise->idle_mean_w},
                {"idle_sd_w", noise->idle_sd_w},
                {"idle_sd_max_w", noise->idle_sd_max_w},
                {"rounds_with_marginal", noise->rounds_with_marginal},
                {"marginal_w", optionalJson(noise->marginal_w)},
                {"busy_sd_w", optionalJson(noise->busy_sd_w)},
                {"busy_s_per_k", optionalJson(noise->busy_s_per_k)},
                {"window_s", optionalJson(noise->window_s)},
                {"j_per_decode", optionalJson(noise->j_per_decode)},
                {"j_per_decode_rel_spread", optionalJson(noise->j_per_decode_rel_spread)}};
    };

    // A coarse counter: the idle sd is its quantisation, so no plan from it. Name the counter in
    // the Inspector's words and say the sampling and round length it needs (core/noise/CadencePlan.h).
    if (record && !idleSdW) {
        const double perKs = perK ? *perK : noise->busy_s_per_k.value_or(0.0);
        if (const auto cp = jb::cadencePlan(*record, noise->spec, perKs, minIdle.value_or(in.min_idle_intervals),
                                            minRounds.value_or(in.min_rounds))) {
            const QString spec = toQ(noise->spec);
            if (p.isSet(QStringLiteral("json"))) {
                ojson lines = ojson::array();
                for (const std::string& l : cp->lines)
                    lines.push_back(l);
                ojson j;
                j["source"] = sourceJson();
                j["coarse_counter"] = {{"counter", cp->counter.spec},
                                       {"coarse_rounds", cp->counter.coarse_rounds},
                                       {"rounds", cp->counter.rounds},
                                       {"text", cp->counter.text()},
                                       {"update_cadence_ms", cp->cadence.ms},
                                       {"cadence_from", cp->cadence.source},
                                       {"record_period_s", cp->record_period_s}};
                j["plan"] = {{"reachable", false},
                             {"message", cp->lines.at(1)},
                             {"lines", lines},
                             {"suggested_sample_s", cp->sample_s},
                             {"idle_s", cp->idle_s},
                             {"k", cp->k},
                             {"busy_s", cp->busy_s},
                             {"rounds", cp->rounds}};
                j["sampling"] = samplingJson(cp->busy_s);
                out() << toQ(j.dump(1)) << Qt::endl;
                return kAborted;
            }
            QTextStream& s = out();
            s << "record      " << pos.first() << " (counter " << spec << ")\n";
            s << "counter     " << toQ(cp->counter.text()) << "\n";
            s << "idle        sd " << num(noise->idle_sd_w) << " W per " << num(cp->record_period_s * 1000)
              << " ms interval: " << toQ(cp->lines.at(0)) << "\n\n";
            s << "plan        " << toQ(cp->lines.at(1)) << "\n";
            s << "  sample period " << num(cp->sample_s * 1000, 6) << " ms\n";
            s << "  k             " << cp->k << " (busy window " << num(cp->busy_s) << " s)\n";
            s << "  idle bracket  " << num(cp->idle_s) << " s\n";
            s << "  rounds        " << cp->rounds << "\n";
            s << "  run it with   --idle-s " << num(cp->idle_s, 6) << " --k " << cp->k << " --rounds " << cp->rounds
              << " --sample-ms " << num(cp->sample_s * 1000, 6) << " --counter " << spec << "\n";
            s << "  then          " << toQ(cp->lines.at(2)) << Qt::endl;
            if (profile) {
                if (const auto sr = jb::samplingRounds(noise->spec, *profile, cp->busy_s))
                    s << "  sampling      " << toQ(sr->text) << Qt::endl;
                if (noise->window_s)
                    if (const auto sr = jb::samplingRounds(noise->spec, *profile, *noise->window_s))
                        s << "  as recorded   " << toQ(sr->text) << Qt::endl;
            }
            return kAborted;
        }
    }
    if (!(in.marginal_w > 0.0) && !marginalW)
        return usageError(cmd, pos.first() + QStringLiteral(": no round has a marginal figure for '%1': give --marginal-w")
                                                 .arg(toQ(noise->spec)));
    if (!(in.busy_s_per_k > 0.0))
        return usageError(cmd, pos.first() + QStringLiteral(": no round has a busy window: give --busy-s-per-k"));
    in.target = *target;
    if (confidence)
        in.confidence = *confidence;
    if (ciWidth)
        in.ci_halfwidth = *ciWidth;
    if (minRounds)
        in.min_rounds = *minRounds;
    in.max_rounds = std::max(in.max_rounds, in.min_rounds);
    if (minIdle)
        in.min_idle_intervals = *minIdle;
    if (maxIdle)
        in.max_idle_s = *maxIdle;
    if (maxBusy)
        in.max_busy_s = *maxBusy;
    if (const jb::PlanCheck c = jb::checkPlanInputs(in); !c.ok)
        return usageError(cmd, toQ(c.error));

    const jb::PlanOutcome o = jb::planRun(in);

    // The resolution table at the record's own settings where there is a record (what its
    // noise let its rounds resolve), else at the plan's.
    jb::ResolutionInputs ri;
    ri.idle_sd_w = in.idle_sd_w;
    ri.busy_sd_w = in.busy_sd_w;
    ri.period_s = in.period_s;
    ri.confidence = in.confidence;
    if (record && noise && noise->window_s && !sampleMs) {
        ri.window_s = *noise->window_s;
        ri.idle_s = record->idle_s;
    } else if (o.reachable) {
        ri.window_s = o.busy_s;
        ri.idle_s = o.idle_s;
    } else {
        ri.window_s = in.busy_s_per_k;
        ri.idle_s = 5.0;
    }
    const std::vector<jb::ResolutionRow> rows = jb::resolution(ri);
    const QString counterSpec = noise ? toQ(noise->spec) : QString();

    if (p.isSet(QStringLiteral("json"))) {
        ojson j;
        j["source"] = sourceJson();
        j["inputs"] = {{"idle_sd_w", in.idle_sd_w},
                       {"busy_sd_w", in.busy_sd_w > 0 ? in.busy_sd_w : in.idle_sd_w},
                       {"marginal_w", in.marginal_w},
                       {"period_s", in.period_s},
                       {"busy_s_per_k", in.busy_s_per_k},
                       {"target", jb::verdictName(in.target)},
                       {"confidence", in.confidence},
                       {"ci_halfwidth", in.ci_halfwidth},
                       {"ci_level", in.ci_level},
                       {"min_rounds", in.min_rounds},
                       {"min_idle_intervals", in.min_idle_intervals},
                       {"extra_rel_sd", in.extra_rel_sd},
                       {"max_idle_s", in.max_idle_s},
                       {"max_busy_s", in.max_busy_s}};
        ojson res = ojson::array();
        for (const jb::ResolutionRow& r : rows)
            res.push_back({{"verdict", jb::verdictName(r.verdict)},
                           {"threshold", r.threshold},
                           {"min_marginal_w", r.min_marginal_w},
                           {"min_energy_j", r.min_energy_j},
                           {"marginal_w_at_confidence", optionalJson(r.marginal_w_at_confidence)},
                           {"energy_j_at_confidence", optionalJson(r.energy_j_at_confidence)}});
        j["resolution"] = {{"window_s", ri.window_s}, {"idle_s", ri.idle_s}, {"rows", res}};
        ojson plan = {{"reachable", o.reachable},
                      {"message", o.message},
                      {"threshold", o.threshold},
                      {"asymptotic_ratio", o.asymptotic_ratio},
                      {"needed_idle_sd_w", o.needed_idle_sd_w},
                      {"needed_marginal_w", o.needed_marginal_w},
                      {"suggested_sample_s", optionalJson(o.suggested_sample_s)}};
        if (o.reachable) {
            plan["idle_s"] = o.idle_s;
            plan["idle_intervals"] = o.idle_intervals;
            plan["k"] = o.k;
            plan["busy_s"] = o.busy_s;
            plan["busy_intervals"] = o.busy_intervals;
            plan["rounds"] = o.rounds;
            plan["settle_s"] = o.settle_s;
            plan["total_s"] = o.total_s;
            plan["round_probability"] = o.round_probability;
            plan["p_clean"] = o.p_clean;
            plan["p_relative_only"] = o.p_relative_only;
            plan["p_noisy"] = o.p_noisy;
            plan["rel_sd_per_round"] = o.rel_sd_per_round;
            plan["ci_halfwidth"] = o.ci_halfwidth;
            plan["ci_met"] = o.ci_met;
            plan["sampling"] = samplingJson(o.busy_s);
        }
        if (profile)
            j["profile"] = {{"counter", noise->spec},
                            {"measured", profile->measured},
                            {"update_period_ms", profile->update_period_ms},
                            {"min_busy_s", in.min_busy_s},
                            {"min_idle_s", in.min_idle_s}};
        if (resolveRatio) {
            const auto bp = compareBlocks(o, noise, *resolveRatio);
            j["compare"] = bp ? ojson{{"ratio_delta", *resolveRatio},
                                      {"rel_sd_per_round", bp->second},
                                      {"blocks", bp->first.blocks},
                                      {"signed_rank_floor", bp->first.floor_applied}}
                              : ojson(nullptr);
        }
        j["plan"] = plan;
        ojson allan = ojson::array();
        for (const jb::AllanPoint& a : in.allan)
            allan.push_back({{"m", a.m}, {"tau_s", a.tau_s}, {"adev_w", a.adev_w}, {"terms", a.terms}});
        j["idle_allan"] = allan;
        out() << toQ(j.dump(1)) << Qt::endl;
        return o.reachable ? kOk : kAborted;
    }

    QTextStream& s = out();
    if (record) {
        s << "record      " << pos.first() << " (counter " << counterSpec << ")\n";
        s << "idle        sd " << num(noise->idle_sd_w) << " W per " << num(in.period_s * 1000) << " ms interval, pooled over "
          << noise->brackets << " bracket" << (noise->brackets == 1 ? "" : "s") << " (" << noise->intervals
          << " intervals, from the " << (noise->source == "samples" ? "raw samples" : "stored bracket figures")
          << "); largest bracket sd " << num(noise->idle_sd_max_w) << " W\n";
        if (noise->marginal_w)
            s << "marginal    " << num(*noise->marginal_w) << " W (median of " << noise->rounds_with_marginal << " rounds)"
              << (marginalW ? QStringLiteral(", planning with %1 W as given").arg(num(in.marginal_w)) : QString()) << "\n";
    } else {
        s << "idle        sd " << num(in.idle_sd_w) << " W per " << num(in.period_s * 1000) << " ms interval (given)\n";
    }
    if (!record || !noise->marginal_w)
        s << "marginal    " << num(in.marginal_w) << " W (given)\n";
    s << "busy        " << num(in.busy_s_per_k) << " s per k";
    if (in.busy_sd_w > 0)
        s << ", busy sd " << num(in.busy_sd_w) << " W";
    if (in.extra_rel_sd > 0)
        s << ", workload's own J/decode spread " << num(in.extra_rel_sd * 100, 3) << "%";
    if (const QString pl = profileLine(); !pl.isEmpty())
        s << "\ncounter     " << pl;
    s << "\nratio       marginal / idle sd = " << num(in.idle_sd_w > 0 ? in.marginal_w / in.idle_sd_w : 0.0) << "\n\n";

    s << "resolution  with a " << num(ri.window_s) << " s busy window and " << num(ri.idle_s) << " s idle brackets\n";
    s << "  (floor: threshold x idle sd, what long brackets tend to; then what reaches the\n"
         "   threshold in the chosen share of rounds with these bracket lengths)\n";
    s << QStringLiteral("  %1 %2 %3 %4 %5\n")
             .arg(QStringLiteral("verdict"), -15)
             .arg(QStringLiteral("ratio"), -7)
             .arg(QStringLiteral("floor W"), -12)
             .arg(QStringLiteral("floor J"), -12)
             .arg(QStringLiteral("in %1 of rounds").arg(pct(in.confidence)));
    for (const jb::ResolutionRow& r : rows) {
        QString at = QStringLiteral("-");
        if (r.marginal_w_at_confidence)
            at = num(*r.marginal_w_at_confidence) + QStringLiteral(" W, ") + num(*r.energy_j_at_confidence) + QStringLiteral(" J");
        s << QStringLiteral("  %1 %2 %3 %4 %5\n")
                 .arg(QString::fromLatin1(jb::verdictName(r.verdict)), -15)
                 .arg(QStringLiteral(">= ") + num(r.threshold), -7)
                 .arg(num(r.min_marginal_w) + QStringLiteral(" W"), -12)
                 .arg(num(r.min_energy_j) + QStringLiteral(" J"), -12)
                 .arg(at);
    }
    s << "\nplan        " << jb::verdictName(in.target) << " in at least " << pct(in.confidence) << " of rounds\n";
    if (!o.reachable) {
        s << "  " << toQ(o.message) << Qt::endl;
        return kAborted;
    }
    s << "  idle bracket  " << num(o.idle_s) << " s (" << o.idle_intervals << " whole intervals)\n";
    s << "  k             " << o.k << " (busy window " << num(o.busy_s) << " s, " << o.busy_intervals << " whole intervals)\n";
    s << "  rounds        " << o.rounds << "\n";
    s << "  total time    " << num(o.total_s, 5) << " s = (rounds + 1) x idle + rounds x (busy + " << num(o.settle_s)
      << " s settling)\n";
    s << "  expected      " << jb::verdictName(in.target) << " or better in " << pct(o.round_probability)
      << " of rounds (clean " << pct(o.p_clean) << ", relative-only or better " << pct(o.p_relative_only)
      << ", noisy or better " << pct(o.p_noisy) << ")\n";
    s << "  J/decode      relative sd per round " << num(o.rel_sd_per_round * 100, 3) << "%, median to +-"
      << num(o.ci_halfwidth * 100, 3) << "% at 95%" << (o.ci_met ? "" : " (wider than asked: too many rounds needed)") << "\n";
    s << "  run it with   --idle-s " << num(o.idle_s, 6) << " --k " << o.k << " --rounds " << o.rounds << " --sample-ms "
      << num(in.period_s * 1000, 6);
    if (!counterSpec.isEmpty())
        s << " --counter " << counterSpec;
    s << Qt::endl;
    if (profile)
        if (const auto sr = jb::samplingRounds(noise->spec, *profile, o.busy_s))
            s << "  sampling      " << toQ(sr->text) << Qt::endl;
    if (resolveRatio) {
        const auto bp = compareBlocks(o, noise, *resolveRatio);
        s << "\ncompare     a " << num(*resolveRatio * 100, 3) << "% difference between two workloads like this one\n";
        if (!bp) {
            s << "  no per-round spread to plan from" << Qt::endl;
        } else {
            s << "  blocks        " << bp->first.blocks << " interleaved blocks (measure --rounds " << bp->first.blocks
              << " ... -- A ::: B), from a relative sd of " << num(bp->second * 100, 3)
              << "% per round; significant at 95% in 80% of such runs"
              << (bp->first.floor_applied ? " (6: the fewest with which the signed-rank test can give p < 0.05)" : "")
              << Qt::endl;
        }
    }
    return kOk;
}

}  // namespace jbcli

#include "RunOptions.h"

#include <jb/counters/CounterProfile.h>
#include <jb/jobs/Provenance.h>
#include <jb/library/Library.h>
#include <jb/record/AtomicWrite.h>
#include <jb/record/JsonText.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace jbcli {

namespace {

QCommandLineOption opt(const char* name, const char* help, const char* value = nullptr)
{
    return value ? QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(help), QString::fromLatin1(value))
                 : QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(help));
}

}  // namespace

jb::Result<ParameterFlags> takeParameterFlags(QStringList& args)
{
    ParameterFlags f;
    std::vector<std::pair<std::string, std::string>> lists;
    const int sep = int(args.indexOf(QStringLiteral("--")));
    const int end = sep < 0 ? int(args.size()) : sep;
    QStringList kept;
    for (int i = 0; i < int(args.size()); ++i) {
        const QString a = args[i];
        auto values = [&](int n, const char* usage) -> jb::Result<std::vector<std::string>> {
            if (i + n >= end)
                return jb::Error{std::string(usage)};
            std::vector<std::string> v;
            for (int k = 1; k <= n; ++k)
                v.push_back(toStd(args[i + k]));
            i += n;
            return v;
        };
        if (i < end && a == QStringLiteral("--parameter-list")) {
            auto v = values(2, "--parameter-list takes NAME and VALUES (comma-separated), e.g. --parameter-list q 3,6,9");
            if (!v)
                return jb::Error{v.error()};
            lists.emplace_back((*v)[0], (*v)[1]);
        } else if (i < end && a == QStringLiteral("--parameter-scan")) {
            auto v = values(3, "--parameter-scan takes NAME MIN MAX, e.g. --parameter-scan q 1 6");
            if (!v)
                return jb::Error{v.error()};
            f.scans.push_back({(*v)[0], (*v)[1], (*v)[2]});
        } else if (i < end && a == QStringLiteral("--parameter-step")) {
            auto v = values(1, "--parameter-step takes a number");
            if (!v)
                return jb::Error{v.error()};
            if (f.step)
                return jb::Error{"--parameter-step was given twice"};
            f.step = (*v)[0];
        } else {
            kept << a;
        }
    }
    if (f.step && f.scans.empty())
        return jb::Error{"--parameter-step goes with --parameter-scan"};
    for (const auto& [name, csv] : lists) {
        auto axis = jb::parameterList(name, csv);
        if (!axis)
            return jb::Error{axis.error()};
        f.axes.push_back(std::move(axis.value()));
    }
    for (const auto& sc : f.scans) {
        auto axis = jb::parameterScan(sc[0], sc[1], sc[2], f.step);
        if (!axis)
            return jb::Error{axis.error()};
        f.axes.push_back(std::move(axis.value()));
    }
    args = kept;
    return f;
}

void addMeasureOptions(QCommandLineParser& p)
{
    p.addOptions({
        opt("label", "Label of the run (the record's 'label').", "L"),
        opt("rounds", "Rounds to run (default 7).", "R"),
        opt("k", "Passes over the child's jobs per round: 'go <k>' (default 1).", "K"),
        opt("idle-s", "Seconds of each idle bracket (default 5).", "S"),
        opt("counter", "A counter (repeatable): rapl, rapl:NAME, task, ioreport-gpu, sim, nvml:N.", "C"),
        opt("sample-ms", "Period of the whole-device counters in ms (default 100).", "MS"),
        opt("meta", "A JSON object stored as the record's 'meta' (default {}).", "JSON"),
        opt("ready-timeout", "Seconds to wait for 'ready' (default 300).", "S"),
        opt("round-timeout", "Seconds to wait for 'done' in a round (default: no limit).", "S"),
        opt("workdir", "Working folder of the child (default: the current one).", "DIR"),
        opt("exec", "Run each command after '--' as a plain program, not a protocol child: joulebench-exec "
                    "runs it once per decode (k times per round), so its start-up cost is inside each "
                    "decode (the record's 'exec'). With ':::' every child is such a command."),
        opt("samples", "Put the raw intervals of every counter into the record."),
        opt("out", "Write the record to FILE (atomically) instead of stdout.", "FILE"),
        opt("journal", "Journal each finished round to FILE, so 'joulebench-cli recover FILE' rebuilds "
                       "the record after a crash (default with --out: FILE.journal).", "FILE"),
        opt("source", "Record the git commit, branch and dirty state of the code in DIR (the record's "
                      "'source'), so the library keys the run by the commit it measured.", "DIR"),
        opt("require-clean", "With --source: refuse to run when tracked files have uncommitted changes."),
        opt("library", "Add the record written with --out to this library (default $JOULEBENCH_LIBRARY, else "
                       "the user's library file).", "FILE|URL"),
        opt("no-library", "Do not add the record to a library."),
        opt("serve", "Publish the run as it goes on [ADDR:]PORT (default address 127.0.0.1; port 0: any) for "
                     "watching dashboards and a /metrics scrape (docs/REMOTE.md); the token is printed.",
            "[ADDR:]PORT"),
        opt("name", "Several children: the name of each, in order (repeatable; {NAME} is substituted; default: "
                    "the child's command line).", "NAME"),
        opt("warmup", "Several children: blocks run first, recorded, and kept out of the statistics (default 0).", "N"),
        opt("baseline", "Several children: the child the others are compared with (default: the first).", "NAME"),
        opt("order-seed", "Several children: the seed of the blocks' balanced order (default 1).", "N"),
        opt("phase-seed", "The seed of the rounds' random phase offsets (default 1; the record's 'phases').",
            "N"),
        opt("fixed-phase", "Start every round right after its idle bracket, without a random phase offset."),
        opt("profile", "A counter's measured profile (characterize --out FILE; repeatable): the record "
                       "carries it instead of the kind's default; rounds name its limits.", "FILE"),
        opt("keep-going", "Several children: a child that fails or times out is dropped (its record is written, "
                          "aborted, with its rounds and the reason; comparison.json marks it) and the others go on "
                          "(default: the failure ends the run). The exit status is still 1."),
        opt("out-dir", "Several children: write each child's record and comparison.json into DIR (needed).", "DIR"),
        opt("export-markdown", "Several children: write the comparison table as Markdown to FILE.", "FILE"),
        opt("export-csv", "Several children: write the comparison table as CSV to FILE.", "FILE"),
    });
}

jb::Result<MeasureCli> measureOptionsFrom(const QCommandLineParser& p, const QStringList& args,
                                          const ParameterFlags& params)
{
    auto fail = [](const QString& message) { return jb::Result<MeasureCli>(jb::Error{toStd(message)}); };
    const int sep = int(args.indexOf(QStringLiteral("--")));
    if (sep < 0)
        return fail(QStringLiteral("give the child's command line after '--' "
                                   "(e.g. -- joulebench-demo-decoder serve)"));
    if (p.positionalArguments().size() != args.size() - sep - 1)
        return fail(QStringLiteral("unexpected argument '%1' before '--'").arg(p.positionalArguments().value(0)));
    jb::Plan plan;
    NumberFlags flags(p);
    auto integer = [&](const char* name, int& into) {
        if (const auto v = flags.integer(name))
            into = int(*v);
    };
    auto number = [&](const char* name, double& into) {
        if (const auto v = flags.number(name))
            into = *v;
    };
    if (p.isSet(QStringLiteral("label")))
        plan.label = toStd(p.value(QStringLiteral("label")));
    integer("rounds", plan.rounds);
    integer("k", plan.k);
    integer("warmup", plan.warmup);
    number("idle-s", plan.idle_s);
    number("sample-ms", plan.sample_ms);
    number("ready-timeout", plan.ready_timeout_s);
    plan.round_timeout_s = flags.number("round-timeout");
    if (const auto s = flags.seed("order-seed"))
        plan.order_seed = *s;
    if (const auto s = flags.seed("phase-seed"))
        plan.phase_seed = *s;
    plan.random_phase = !p.isSet(QStringLiteral("fixed-phase"));
    for (const QString& f : p.values(QStringLiteral("profile"))) {
        auto text = jb::readWholeFile(toStd(f));
        if (!text)
            return fail(QStringLiteral("--profile: %1").arg(toQ(text.error())));
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(*text);
        } catch (const nlohmann::json::parse_error& e) {
            return fail(QStringLiteral("--profile %1: not JSON: %2").arg(f, QString::fromUtf8(e.what())));
        }
        auto prof = jb::CounterProfile::fromJson(j, toStd(f));
        if (!prof)
            return fail(QStringLiteral("--profile: %1").arg(toQ(prof.error())));
        plan.profiles.push_back(std::move(*prof));
    }
    if (!flags.error.isEmpty())
        return fail(flags.error);
    for (const QString& c : p.values(QStringLiteral("counter")))
        plan.counters.push_back(toStd(c));
    if (p.isSet(QStringLiteral("meta"))) {
        const std::string text = toStd(p.value(QStringLiteral("meta")));
        try {
            plan.meta = nlohmann::ordered_json::parse(text);
        } catch (const nlohmann::json::parse_error& e) {
            return fail(QStringLiteral("--meta is not JSON: %1").arg(QString::fromUtf8(e.what())));
        }
    }
    plan.workdir = toStd(p.value(QStringLiteral("workdir")));
    plan.with_samples = p.isSet(QStringLiteral("samples"));
    plan.keep_going = p.isSet(QStringLiteral("keep-going"));
    plan.exec = p.isSet(QStringLiteral("exec"));
    std::vector<std::string> childArgs;
    for (const QString& a : p.positionalArguments())
        childArgs.push_back(toStd(a));
    auto commands = jb::splitCommands(childArgs);
    if (!commands)
        return fail(toQ(commands.error()));
    std::vector<std::string> names;
    for (const QString& n : p.values(QStringLiteral("name")))
        names.push_back(toStd(n));
    auto workloads = jb::expandWorkloads(*commands, params.axes, names);
    if (!workloads)
        return fail(toQ(workloads.error()));
    const bool several = workloads->size() > 1;
    if (several) {
        for (const jb::Workload& w : *workloads)
            plan.children.push_back({w.name, w.argv, {}});
        plan.child = workloads->front().argv;
    } else {
        plan.child = workloads->front().argv;
    }
    for (const char* only : {"warmup", "baseline", "order-seed", "keep-going", "out-dir", "export-markdown", "export-csv"})
        if (!several && p.isSet(QString::fromLatin1(only)))
            return fail(QStringLiteral("--%1 is for several children (-- A ::: B, or a parameter list)")
                                       .arg(QString::fromLatin1(only)));
    if (!several && p.isSet(QStringLiteral("name")))
        return fail(QStringLiteral("--name is for several children (-- A ::: B); a single run has --label"));
    int baseline = 0;
    if (p.isSet(QStringLiteral("baseline"))) {
        const std::string b = toStd(p.value(QStringLiteral("baseline")));
        baseline = -1;
        for (std::size_t i = 0; i < plan.children.size(); ++i)
            if (plan.children[i].name == b)
                baseline = int(i);
        if (baseline < 0) {
            QStringList known;
            for (const jb::PlanChild& c : plan.children)
                known << toQ(c.name);
            return fail(QStringLiteral("--baseline %1: no child has that name (the children: %2)")
                                       .arg(toQ(b), known.join(QStringLiteral(", "))));
        }
    }
    const QString outDir = p.value(QStringLiteral("out-dir"));
    if (several) {
        if (outDir.isEmpty())
            return fail(QStringLiteral("several children write several records: give --out-dir DIR"));
        if (p.isSet(QStringLiteral("out")) || p.isSet(QStringLiteral("journal")))
            return fail(QStringLiteral("several children: --out and --journal are for one child; "
                                                  "--out-dir DIR takes every record"));
        if (!QDir().mkpath(outDir))
            return fail(QStringLiteral("--out-dir %1: cannot create the folder").arg(outDir));
        // Every record goes there at the end: a folder that takes no file is refused now, before
        // the first round, not after the run (when its measurements would have nowhere to go).
        if (jb::Status st = jb::checkFolderTakesFiles(toStd(outDir)); !st)
            return fail(QStringLiteral("--out-dir: %1; nothing was run").arg(toQ(st.error())));
        for (const char* flag : {"export-markdown", "export-csv"}) {
            const QString f = p.value(QString::fromLatin1(flag));
            if (f.isEmpty())
                continue;
            if (jb::Status st = jb::checkFolderTakesFiles(toStd(QFileInfo(f).absolutePath())); !st)
                return fail(QStringLiteral("--%1 %2: %3; nothing was run")
                                           .arg(QString::fromLatin1(flag), f, toQ(st.error())));
        }
    }
    auto copts = counterOptionsFrom(p);
    if (!copts)
        return fail(toQ(copts.error()));
    plan.counter_options = copts.value();
    if (jb::Status v = jb::validatePlan(plan); !v)
        return fail(toQ(v.error()));
    const QString outPath = p.value(QStringLiteral("out"));
    if (!outPath.isEmpty() && !QFileInfo(outPath).absoluteDir().exists())
        return fail(QStringLiteral("--out %1: the folder %2 does not exist")
                                   .arg(outPath, QFileInfo(outPath).absolutePath()));
    plan.journal_path = toStd(p.isSet(QStringLiteral("journal")) ? p.value(QStringLiteral("journal"))
                              : outPath.isEmpty()                  ? QString()
                                                                   : outPath + QStringLiteral(".journal"));
    if (!outPath.isEmpty())
        if (jb::Status st = jb::checkFolderTakesFiles(toStd(QFileInfo(outPath).absolutePath())); !st)
            return fail(QStringLiteral("--out %1: %2; nothing was run").arg(outPath, toQ(st.error())));
    // The journal is a file this run creates, never one that is there: an existing one may hold
    // a killed run's rounds, which only `recover` may turn into a record.
    if (!plan.journal_path.empty()) {
        const QString journal = toQ(plan.journal_path);
        const QString flag = p.isSet(QStringLiteral("journal")) ? QStringLiteral("--journal") : QStringLiteral("--out");
        if (QFileInfo(journal).exists() || QFileInfo(journal).isSymLink())
            return fail(QStringLiteral("%1: the journal %2 exists (it may hold a run that did not finish: "
                                                  "'joulebench-cli recover %2' rebuilds its record; remove it to "
                                                  "start anew); nothing was run")
                                       .arg(flag, journal));
        if (jb::Status st = jb::checkFolderTakesFiles(toStd(QFileInfo(journal).absolutePath())); !st)
            return fail(QStringLiteral("%1: cannot keep the journal %2: %3; nothing was run")
                                       .arg(flag, journal, toQ(st.error())));
    }

    if (p.isSet(QStringLiteral("require-clean")) && !p.isSet(QStringLiteral("source")))
        return fail(QStringLiteral("--require-clean needs --source DIR (the tree that must be clean)"));
    if (p.isSet(QStringLiteral("library")) && p.isSet(QStringLiteral("no-library")))
        return fail(QStringLiteral("--library and --no-library exclude each other"));
    // The code's provenance, as the job queue records it (git state only: nothing is hashed).
    jb::ojson source;
    if (p.isSet(QStringLiteral("source"))) {
        jb::ProvenanceSettings prov;
        prov.source = toStd(QFileInfo(p.value(QStringLiteral("source"))).absoluteFilePath());
        prov.require_clean = p.isSet(QStringLiteral("require-clean"));
        auto report = jb::sourceReport(prov, false);
        if (!report)
            return fail(QStringLiteral("--source: %1").arg(toQ(report.error())));
        source = jb::ojson::parse(report->dump());
    }
    MeasureCli m;
    m.several = several;
    m.export_markdown = p.value(QStringLiteral("export-markdown"));
    m.export_csv = p.value(QStringLiteral("export-csv"));
    m.run.plan = std::move(plan);
    m.run.out_path = toStd(outPath);
    m.run.out_dir = several ? toStd(outDir) : std::string();
    m.run.baseline = baseline;
    m.run.source = std::move(source);
    if (!p.isSet(QStringLiteral("no-library")))
        m.run.library = jb::librarySpec(toStd(p.value(QStringLiteral("library"))));
    if (p.isSet(QStringLiteral("serve")))
        m.run.serve = toStd(p.value(QStringLiteral("serve")));
    return m;

}

jb::JobRunOptions cliJobRunOptions()
{
    jb::JobRunOptions o;
    o.joulebench_cli = toStd(QFileInfo(QCoreApplication::applicationFilePath()).absoluteFilePath());
    return o;
}

jb::Result<jb::JobRunOptions> jobRunOptionsFrom(const QCommandLineParser& p)
{
    auto counter_opts = counterOptionsFrom(p);
    if (!counter_opts)
        return jb::Error{counter_opts.error()};
    jb::JobRunOptions o = cliJobRunOptions();
    o.dry_run = p.isSet(QStringLiteral("dry-run"));
    o.counters = *counter_opts;
    if (p.isSet(QStringLiteral("nvml-library")))
        o.nvml_library = counter_opts->nvml_library;
    if (p.isSet(QStringLiteral("nvidia-smi")))
        o.nvidia_smi = toStd(p.value(QStringLiteral("nvidia-smi")));
    if (!p.isSet(QStringLiteral("no-library")))
        o.library = jb::librarySpec(toStd(p.value(QStringLiteral("library"))));
    if (p.isSet(QStringLiteral("serve")))
        o.serve = toStd(p.value(QStringLiteral("serve")));
    return o;
}

}  // namespace jbcli

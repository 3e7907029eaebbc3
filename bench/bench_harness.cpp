// CPU time of the measuring process itself (sampler thread, session, record), the child
// excluded, per second of measurement, at 100 ms and 10 ms: a sim-counter run of the same
// session the CLI runs, in this process, with a child that sleeps through its rounds.
//   bench_harness [--seconds S]   (default about 60 per period)
#include <jb/base/Clock.h>
#include <jb/record/RecordJson.h>
#include <jb/session/Session.h>

#include <QCoreApplication>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <sys/resource.h>

using namespace jb;

namespace {
double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}
}  // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    double seconds = 60;
    for (int i = 1; i + 1 < argc; ++i)
        if (!std::strcmp(argv[i], "--seconds"))
            seconds = std::atof(argv[i + 1]);
    std::printf("# bench_harness: CPU of the measuring process per second of a sim run (child excluded)\n");
    std::printf("%-9s %10s %10s %14s\n", "period", "wall s", "cpu s", "CPU % of core");
    for (double period_ms : {100.0, 10.0}) {
        Plan p;
        p.label = "bench";
        // Rounds of 1 s busy and 2 s idle: (rounds + 1) x 2 + rounds x 1 = seconds.
        p.rounds = std::max(1, int((seconds - 2) / 3));
        p.k = 1;
        p.idle_s = 2;
        p.sample_ms = period_ms;
        p.counters = {"sim"};
        p.child = {JB_TEST_BIN_DIR "/fakechild", "serve", "--jobs", "1", "--job-ms", "1000"};
        p.with_samples = true;
        Session s(p);
        s.setForwardChildStderr(true);
        double cpu0 = 0;
        std::int64_t t0 = 0;
        double cpu = 0, wall = 0;
        QObject::connect(&s, &Session::started, [&] {
            cpu0 = cpuSeconds();
            t0 = monotonicNs();
        });
        QObject::connect(&s, &Session::finished, [&](const Record& r) {
            cpu = cpuSeconds() - cpu0;
            wall = double(monotonicNs() - t0) / 1e9;
            (void)dumpRecord(r);  // writing the record is part of the harness's work
            cpu = cpuSeconds() - cpu0;
            if (r.isAborted())
                std::fprintf(stderr, "bench_harness: run aborted: %s\n", r.error->c_str());
            QCoreApplication::quit();
        });
        QTimer::singleShot(0, &s, &Session::start);
        QCoreApplication::exec();
        std::printf("%6.0f ms %10.1f %10.3f %13.3f%%\n", period_ms, wall, cpu, wall > 0 ? cpu / wall * 100 : 0.0);
    }
    return 0;
}

// Sampler lateness and mean-interval drift on absolute deadlines, against the reference's
// sleep-then-read loop, reading a powercap-style file at 100 ms and 10 ms.
//   bench_sampler [--seconds S]   (default 60 per period)
#include <jb/base/Clock.h>
#include <jb/counters/CounterRegistry.h>
#include <jb/sampling/Sampler.h>
#include <jb/stats/Statistics.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <sys/resource.h>
#include <thread>

using namespace jb;

namespace {

double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

void writeZone(const QString& zone)
{
    QDir().mkpath(zone);
    auto put = [&](const char* name, const char* text) {
        QFile f(zone + QLatin1Char('/') + QLatin1String(name));
        f.open(QIODevice::WriteOnly);
        f.write(text);
    };
    put("name", "package-0\n");
    put("max_energy_range_uj", "262143328850\n");
    put("energy_uj", "123456789\n");
}

// The reference's loop: sleep(period), read, stamp; its intervals drift by the read and
// wake-up costs accumulated every period.
double referenceDrift(const QString& zone, std::int64_t period_ns, double seconds)
{
    CounterOptions o;
    o.rapl_zone = zone.toStdString();
    auto c = openCounter("rapl", o);
    if (!c)
        return 0;
    const std::int64_t start = monotonicNs();
    std::int64_t n = 0, last = start;
    while (double(last - start) / 1e9 < seconds) {
        timespec ts{time_t(period_ns / 1'000'000'000), long(period_ns % 1'000'000'000)};
        nanosleep(&ts, nullptr);
        (void)c.value()->readNj();
        last = monotonicNs();
        ++n;
    }
    const double mean = double(last - start) / double(n);
    return (mean - double(period_ns)) / double(period_ns);
}

}  // namespace

int main(int argc, char** argv)
{
    double seconds = 60;
    for (int i = 1; i + 1 < argc; ++i)
        if (!std::strcmp(argv[i], "--seconds"))
            seconds = std::atof(argv[i + 1]);
    QTemporaryDir dir;
    const QString zone = dir.filePath(QStringLiteral("intel-rapl:0"));
    writeZone(zone);
    std::printf("# bench_sampler: %.0f s per period, rapl reader on a file zone\n", seconds);
    std::printf("%-9s %9s %12s %12s %12s %8s %14s %16s %14s\n", "period", "intervals", "p50 late us",
                "p99 late us", "max late us", "missed", "drift", "reference drift", "CPU % core");
    for (std::int64_t period_ms : {100, 10}) {
        const std::int64_t period_ns = period_ms * 1'000'000;
        CounterOptions o;
        o.rapl_zone = zone.toStdString();
        auto c = openCounter("rapl", o);
        if (!c) {
            std::fprintf(stderr, "bench_sampler: %s\n", c.error().c_str());
            return 1;
        }
        Sampler s(std::move(c.value()), period_ns);
        const double cpu0 = cpuSeconds();
        const std::int64_t t0 = monotonicNs();
        if (Status st = s.start(); !st) {
            std::fprintf(stderr, "bench_sampler: %s\n", st.error().c_str());
            return 1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(std::int64_t(seconds * 1000)));
        s.stop();
        const double wall = double(monotonicNs() - t0) / 1e9;
        const double cpu = cpuSeconds() - cpu0;
        const auto iv = s.store()->all();
        const SamplerFigures f = s.figures();
        // Drift: the mean interval against the period, over the whole run.
        const double mean = double(iv.back().t1_ns - iv.front().t0_ns) / double(iv.size());
        const double drift = (mean - double(period_ns)) / double(period_ns);
        const double ref = referenceDrift(zone, period_ns, std::min(seconds, 10.0));
        std::printf("%6lld ms %9zu %12.1f %12.1f %12.1f %8lld %13.5f%% %15.3f%% %13.3f%%\n", (long long)period_ms,
                    iv.size(), double(f.lateness_p50_ns) / 1e3, double(f.lateness_p99_ns) / 1e3,
                    double(f.lateness_max_ns) / 1e3, (long long)f.missed_deadlines, drift * 100, ref * 100,
                    cpu / wall * 100);
    }
    return 0;
}

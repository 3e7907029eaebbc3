// A fake powercap zone for the tests: writes <dir>/name, max_energy_range_uj and energy_uj,
// advancing energy_uj every --tick-ms by idle W x dt plus busy W for the part of the tick the
// fake child's <flag> was up (its edges carry their clock times, tests/clients/BusyFlag.h), with
// wraparound at the range. Runs until killed or --seconds pass.
//   fakezone DIR [--name N] [--idle-w W] [--busy-w W] [--flag FILE] [--tick-ms MS]
//            [--range-uj R] [--start-uj E] [--seconds S]
//            [--file F] [--no-meta] [--power] [--stall-at S --stall-s D]
//            [--jump-at S --jump-uj J] [--back-at S --back-uj B]
// --file: the counter file in DIR (default energy_uj; energy1_input for a hwmon chip);
// --no-meta: no name / max_energy_range_uj (a hwmon chip's folder has its own); --power: write
// the power in uW instead of the energy (amdgpu); --stall-at: the counter stops advancing for D s from S s on;
// --jump-at: J uJ added at once at S s; --back-at: the counter steps back by B uJ at S s;
// --drift-flag FILE --drift-w W: W more while FILE exists (an idle power that changes).
// --busy-from-flag: the flag file's "busy W" (fakechild --busy-w) sets the busy power of the
// child that wrote it instead of --busy-w; --busy-growth F: the busy power grows by the fraction F per second of the zone's
// life (a chip that warms: the same work costs more as the run goes on).
// --zone DIR2 NAME2 IDLE_W2 BUSY_W2 RANGE_UJ2 (repeatable): one more zone written by this
// process in the same tick, seeing the same flag (a whole tree with one writer, so every zone
// sees the busy edges at the same moment).
// --mode exact|sampled|boxcar|late --period-ms P --window-ms W --delay-ms D: how the zone's
// counter shows its true energy (tests/clients/CounterModes.h): sampled sees W ms of every P,
// boxcar averages the last W ms every P, late publishes every P ms the energy of D ms before;
// with --power the file holds the mode's power reading. Default exact (every tick).
// The flag may also be a plain file that exists while the load is on (no edge times: the zone
// books busy from the tick that sees it to the tick that sees it gone).
#include "BusyFlag.h"
#include "CounterModes.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: fakezone DIR [options]\n");
        return 2;
    }
    // A zone that loses the CPU publishes stale counts; ask to be scheduled first (granted to
    // root only; elsewhere the request fails and the zone runs at its usual priority).
    (void)::setpriority(PRIO_PROCESS, 0, -20);
    const std::string dir = argv[1];
    std::string name = "package-0", flag, file = "energy_uj", drift_flag;
    double drift_w = 0, busy_growth = 0;
    bool busy_from_flag = false;
    bool meta = true, power = false;
    double stall_at = -1, stall_s = 0, jump_at = -1, back_at = -1;
    unsigned long long jump_uj = 0, back_uj = 0;
    double idle_w = 20, busy_w = 15, seconds = 3600;
    long tick_ms = 2;
    unsigned long long range = 262143328850ULL, energy = 0;
    countermode::Params mode;
    double period_ms = 100, window_ms = 0, delay_ms = 0;
    struct Extra {
        std::string dir, name;
        double idle_w, busy_w;
        unsigned long long range, energy = 0;
        double carry_uj = 0;
    };
    std::vector<Extra> extras;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--name") name = next();
        else if (a == "--idle-w") idle_w = std::atof(next().c_str());
        else if (a == "--busy-w") busy_w = std::atof(next().c_str());
        else if (a == "--flag") flag = next();
        else if (a == "--tick-ms") tick_ms = std::atol(next().c_str());
        else if (a == "--range-uj") range = std::strtoull(next().c_str(), nullptr, 10);
        else if (a == "--start-uj") energy = std::strtoull(next().c_str(), nullptr, 10);
        else if (a == "--seconds") seconds = std::atof(next().c_str());
        else if (a == "--file") file = next();
        else if (a == "--drift-flag") drift_flag = next();
        else if (a == "--drift-w") drift_w = std::atof(next().c_str());
        else if (a == "--busy-growth") busy_growth = std::atof(next().c_str());
        else if (a == "--busy-from-flag") busy_from_flag = true;
        else if (a == "--no-meta") meta = false;
        else if (a == "--mode") {
            if (!countermode::parseMode(next(), mode.mode)) {
                std::fprintf(stderr, "fakezone: --mode takes exact, sampled, boxcar or late\n");
                return 2;
            }
        } else if (a == "--period-ms") period_ms = std::atof(next().c_str());
        else if (a == "--window-ms") window_ms = std::atof(next().c_str());
        else if (a == "--delay-ms") delay_ms = std::atof(next().c_str());
        else if (a == "--power") power = true;
        else if (a == "--stall-at") stall_at = std::atof(next().c_str());
        else if (a == "--stall-s") stall_s = std::atof(next().c_str());
        else if (a == "--jump-at") jump_at = std::atof(next().c_str());
        else if (a == "--jump-uj") jump_uj = std::strtoull(next().c_str(), nullptr, 10);
        else if (a == "--back-at") back_at = std::atof(next().c_str());
        else if (a == "--back-uj") back_uj = std::strtoull(next().c_str(), nullptr, 10);
        else if (a == "--zone") {
            Extra e;
            e.dir = next();
            e.name = next();
            e.idle_w = std::atof(next().c_str());
            e.busy_w = std::atof(next().c_str());
            e.range = std::strtoull(next().c_str(), nullptr, 10);
            if (e.dir.empty() || e.range == 0) {
                std::fprintf(stderr, "fakezone: --zone takes DIR NAME IDLE_W BUSY_W RANGE_UJ\n");
                return 2;
            }
            extras.push_back(e);
        } else {
            std::fprintf(stderr, "fakezone: unknown option %s\n", a.c_str());
            return 2;
        }
    }
    for (const Extra& e : extras) {
        ::mkdir(e.dir.c_str(), 0755);
        std::ofstream(e.dir + "/name") << e.name << "\n";
        std::ofstream(e.dir + "/max_energy_range_uj") << e.range << "\n";
    }
    if (meta) {
        std::ofstream(dir + "/name") << name << "\n";
        std::ofstream(dir + "/max_energy_range_uj") << range << "\n";
    }
    mode.period_s = period_ms / 1000.0;
    mode.window_s = window_ms / 1000.0;
    mode.delay_s = delay_ms / 1000.0;
    const bool modelled = mode.mode != countermode::Mode::Exact;
    if (modelled && period_ms <= 0) {
        std::fprintf(stderr, "fakezone: --period-ms must be above 0\n");
        return 2;
    }
    countermode::Model model(mode);
    double true_j = 0, booked_uj = 0;
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    double carry_uj = 0;
    const std::string tmp = dir + "/." + file + ".tmp", target = dir + "/" + file;
    auto publish = [](const std::string& t, const std::string& to, unsigned long long v) {
        std::ofstream(t) << v << "\n";
        std::rename(t.c_str(), to.c_str());  // readers never see a half-written number
    };
    bool jumped = false, stepped_back = false;
    busyflag::Watcher watch(flag);  // the child's busy spans, edge to edge (BusyFlag.h)
    std::int64_t last_ns = busyflag::nowNs();
    for (;;) {
        const auto now = Clock::now();
        const std::int64_t now_ns = busyflag::nowNs();
        const double dt = double(now_ns - last_ns) * 1e-9;
        const double since = std::chrono::duration<double>(now - start).count();
        const busyflag::Watcher::Share share = watch.tick(last_ns, now_ns);
        const std::int64_t tick_from_ns = last_ns;
        last_ns = now_ns;
        struct stat st{};
        const bool busy = share.busy_now;
        const bool drifted = !drift_flag.empty() && ::stat(drift_flag.c_str(), &st) == 0;
        auto busyPower = [&](double flag_w) {
            return (busy_from_flag && flag_w > 0 ? flag_w : busy_w) * (1.0 + busy_growth * since);
        };
        // The busy energy of this tick, booked for exactly the part of it the child was busy.
        const double busy_j = share.joules(busyPower);
        const double w = idle_w + (busy ? busyPower(share.open_w) : 0) + (drifted ? drift_w : 0);
        const bool stalled = stall_at >= 0 && since >= stall_at && since < stall_at + stall_s;
        if (!stalled)
            carry_uj += ((idle_w + (drifted ? drift_w : 0)) * dt + busy_j) * 1e6;
        auto whole = (unsigned long long)carry_uj;
        carry_uj -= double(whole);
        if (modelled) {
            // The true energy goes to the mode; the file shows what the mode publishes.
            // The busy energy where in the tick it was drawn (the flag's edges), the idle
            // energy spread evenly: a tick that ran late (the zone lost the CPU) does not smear
            // a short burst over the whole tick, which a sampled mode would count in part.
            const double from_j = true_j;
            const double idle_rate_w = stalled ? 0 : idle_w + (drifted ? drift_w : 0);
            const double busy_total_j = stalled ? 0 : busy_j;
            auto trueAt = [&](std::int64_t x) {
                double b = 0;
                auto part = [&](double s, double flag_w, std::int64_t a, std::int64_t z) {
                    if (s > 0 && x > a)
                        b += double(std::min(x, z) - a) * 1e-9 * busyPower(flag_w);
                };
                part(share.ended_s, share.ended_w, share.ended_from, share.ended_to);
                part(share.open_s, share.open_w, share.open_from, now_ns);
                return from_j + idle_rate_w * double(x - tick_from_ns) * 1e-9 + std::min(b, busy_total_j);
            };
            std::int64_t knots[3] = {share.ended_s > 0 ? share.ended_from : 0, share.ended_s > 0 ? share.ended_to : 0,
                                     share.open_s > 0 ? share.open_from : 0};
            std::sort(std::begin(knots), std::end(knots));
            std::int64_t fed = tick_from_ns;
            for (std::int64_t k : knots)
                if (k > fed && k < now_ns && busy_total_j > 0) {
                    model.addTrue(double(k) * 1e-9, trueAt(k));
                    fed = k;
                }
            true_j += idle_rate_w * dt + busy_total_j;
            model.addTrue(double(now_ns) * 1e-9, true_j);
            const double shown_uj = model.energyJ() * 1e6;
            whole = shown_uj > booked_uj ? (unsigned long long)(shown_uj - booked_uj) : 0;
            booked_uj += double(whole);
        }
        if (jump_at >= 0 && since >= jump_at && !jumped) {
            whole += jump_uj;
            jumped = true;
        }
        energy = (energy + whole) % range;
        if (back_at >= 0 && since >= back_at && !stepped_back) {
            energy = energy > back_uj ? energy - back_uj : 0;
            stepped_back = true;
        }
        const double shown_w = modelled ? model.powerW() : w;
        const unsigned long long value = power ? (unsigned long long)(std::max(0.0, shown_w) * 1e6) : energy;
        for (Extra& e : extras) {
            e.carry_uj += (e.idle_w * dt + share.joules([&](double) { return e.busy_w; })) * 1e6;
            const auto part = (unsigned long long)e.carry_uj;
            e.carry_uj -= double(part);
            e.energy = (e.energy + part) % e.range;
            publish(e.dir + "/.energy_uj.tmp", e.dir + "/energy_uj", e.energy);
        }
        if (!stalled || power)
            publish(tmp, target, value);
        watch.published();
        if (std::chrono::duration<double>(now - start).count() > seconds)
            return 0;
        std::this_thread::sleep_for(std::chrono::milliseconds(tick_ms));
    }
}

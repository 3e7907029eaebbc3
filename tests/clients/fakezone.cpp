// A fake powercap zone for the tests: writes <dir>/name, max_energy_range_uj and energy_uj,
// advancing energy_uj every --tick-ms by (idle W + busy W while <flag> exists) x dt, with
// wraparound at the range. Runs until killed or --seconds pass.
//   fakezone DIR [--name N] [--idle-w W] [--busy-w W] [--flag FILE] [--tick-ms MS]
//            [--range-uj R] [--start-uj E] [--seconds S]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <thread>

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: fakezone DIR [options]\n");
        return 2;
    }
    const std::string dir = argv[1];
    std::string name = "package-0", flag;
    double idle_w = 20, busy_w = 15, seconds = 3600;
    long tick_ms = 2;
    unsigned long long range = 262143328850ULL, energy = 0;
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
    }
    std::ofstream(dir + "/name") << name << "\n";
    std::ofstream(dir + "/max_energy_range_uj") << range << "\n";
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    auto last = start;
    double carry_uj = 0;
    const std::string tmp = dir + "/.energy_uj.tmp", target = dir + "/energy_uj";
    for (;;) {
        const auto now = Clock::now();
        const double dt = std::chrono::duration<double>(now - last).count();
        last = now;
        struct stat st{};
        const bool busy = !flag.empty() && ::stat(flag.c_str(), &st) == 0;
        carry_uj += (idle_w + (busy ? busy_w : 0)) * dt * 1e6;
        const auto whole = (unsigned long long)carry_uj;
        carry_uj -= double(whole);
        energy = (energy + whole) % range;
        std::ofstream(tmp) << energy << "\n";
        std::rename(tmp.c_str(), target.c_str());  // readers never see a half-written number
        if (std::chrono::duration<double>(now - start).count() > seconds)
            return 0;
        std::this_thread::sleep_for(std::chrono::milliseconds(tick_ms));
    }
}

#include <jb/noise/RealCounter.h>

#include <jb/counters/CounterProfile.h>

namespace jb {

RealCounterChoice chooseRealCounter(const std::vector<CounterStatus>& counters, bool decoder_ok,
                                    const std::string& decoder_path)
{
    RealCounterChoice c;
    std::string why;
    for (const CounterStatus& s : counters) {
        if (!s.whole_device || s.spec == "sim")
            continue;
        if (s.available) {
            c.spec = s.spec;
            break;
        }
        why += "\n" + s.spec + ": " + (s.reason.empty() ? std::string("not available") : s.reason);
    }
    if (!c.ok()) {
        c.reason = "No real whole-device counter is readable on this machine." + why;
        return c;
    }
    if (!decoder_ok) {
        c.reason = "The demo decoder is missing or not executable: " + decoder_path +
            "\n(it is built and installed next to the dashboard)";
        c.spec.clear();
    }
    return c;
}

Plan realCounterPlan(const RealCounterChoice& choice, const LiveSimSettings& settings,
                     std::vector<std::string> decoder_argv, const CounterOptions& counters)
{
    Plan p;
    p.label = "noise-lab";
    p.rounds = 10000;  // until the page stops it
    p.k = settings.k;
    p.idle_s = settings.idle_s;
    p.sample_ms = settings.period_s * 1000.0;
    p.counters = {choice.spec};
    p.child = std::move(decoder_argv);
    p.counter_options = counters;
    return p;
}

bool realLayoutChanged(const Plan& running, const LiveSimSettings& settings)
{
    return running.k != settings.k || running.idle_s != settings.idle_s ||
        running.sample_ms != settings.period_s * 1000.0;
}

bool longerPeriodLowersNoise(const std::string& spec)
{
    return counterKindOfSpec(spec) != CounterKind::Sim;
}

}  // namespace jb

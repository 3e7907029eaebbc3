#include <jb/noise/RealCounter.h>

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

}  // namespace jb

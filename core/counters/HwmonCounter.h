#pragma once
// hwmon energy and power channels (`hwmon:CHIP:LABEL`): any energyN_input (uJ) under a hwmon
// root, and for chips with only powerN_average / powerN_input (uW, amdgpu) a counter that
// integrates the power between reads. The root is a parameter (CounterOptions::hwmon_root),
// so tests feed fake trees.
#include <jb/counters/CounterRegistry.h>
#include <jb/counters/EnergyCounter.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace jb {

struct HwmonChannel {
    std::string spec;    // hwmon:CHIP:LABEL (hwmon:hwmonN:LABEL where CHIP repeats)
    std::string folder;  // hwmonN
    std::string chip;    // the chip's `name`
    std::string label;   // the channel's `label`, or energyN / powerN
    std::string file;    // energyN_input, powerN_average or powerN_input (full path)
    bool integrated = false;          // a power file integrated between reads
    std::int64_t average_ms = 0;      // the sensor's own averaging interval (0: none given)
    std::string scope;
};

// Every energy channel under root, and the power channels of chips that have no energy one,
// in hwmonN order.
std::vector<HwmonChannel> findHwmonChannels(const std::string& hwmon_root);

std::vector<CounterStatus> listHwmonCounters(const CounterOptions& opt);
Result<std::unique_ptr<EnergyCounter>> openHwmonCounter(const std::string& spec, const CounterOptions& opt);

// Two specs for the same hwmon file are refused (the same energy twice).
Status checkHwmonOverlap(const std::vector<std::string>& specs, const CounterOptions& opt);

// The message for a hwmon file that could not be read: vanished, permission (with the udev
// fix), other.
std::string hwmonFileError(const std::string& file, int err);

}  // namespace jb

#pragma once
// A round's verdict as a type: what its ratio (marginal W / idle sd) makes of it. The words
// ("clean", "relative-only", "noisy", "unusable") exist only at the edges: verdictName writes
// them (JSON, tables, badges), parseVerdict reads them (a record's "verdict", a --target flag).
// A leaf header: nothing but the standard library.
#include <optional>
#include <string_view>

namespace jb {

enum class Verdict { Clean, RelativeOnly, Noisy, Unusable };

// The ratio thresholds: clean >= 10, relative-only >= 3, noisy >= 1, unusable below.
inline constexpr double kCleanRatio = 10.0;
inline constexpr double kRelativeOnlyRatio = 3.0;
inline constexpr double kNoisyRatio = 1.0;

// Best first: the order of tables, legends and counts.
inline constexpr Verdict kVerdicts[] = {Verdict::Clean, Verdict::RelativeOnly, Verdict::Noisy,
                                        Verdict::Unusable};

// The record's spelling: "clean", "relative-only", "noisy", "unusable".
constexpr const char* verdictName(Verdict v)
{
    switch (v) {
    case Verdict::Clean:
        return "clean";
    case Verdict::RelativeOnly:
        return "relative-only";
    case Verdict::Noisy:
        return "noisy";
    case Verdict::Unusable:
        return "unusable";
    }
    return "unusable";
}

// The least ratio that earns a verdict; none for unusable (any ratio below noisy's).
constexpr std::optional<double> verdictThreshold(Verdict v)
{
    switch (v) {
    case Verdict::Clean:
        return kCleanRatio;
    case Verdict::RelativeOnly:
        return kRelativeOnlyRatio;
    case Verdict::Noisy:
        return kNoisyRatio;
    case Verdict::Unusable:
        return std::nullopt;
    }
    return std::nullopt;
}

// The verdict a word names (the record's spelling only); none for any other text.
constexpr std::optional<Verdict> parseVerdict(std::string_view word)
{
    for (const Verdict v : kVerdicts)
        if (word == verdictName(v))
            return v;
    return std::nullopt;
}

// What a JSON reader expects where a verdict goes, for its error message.
inline constexpr const char* kVerdictExpected =
    "one of \"clean\", \"relative-only\", \"noisy\", \"unusable\" or null";

}  // namespace jb

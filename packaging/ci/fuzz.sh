#!/usr/bin/env bash
# packaging/ci/fuzz.sh [SECONDS] [TARGET...]: builds the fuzz preset (clang, libFuzzer, ASan,
# UBSan) and fuzzes each target for SECONDS (default 20, or $JB_FUZZ_SECONDS).
#   1. replays every stored input first (ctest --preset fuzz): a crash kept from an earlier run
#      fails until it is fixed;
#   2. fuzzes each target from tests/fuzz/corpus/<target>/; new inputs go to a scratch folder,
#      a crash, leak or timeout is written into tests/fuzz/corpus/<target>/ (crash-<sha1>, ...)
#      so it stays a test case once committed;
#   3. with JB_FUZZ_MERGE=1, merges the inputs that found new coverage into the corpus.
# Targets: record protocol jobfile nvidia_smi ioreg (default: all that were built).
# Exit status: 0 when nothing crashed, 1 otherwise. Needs clang-14 and libclang-rt-14-dev.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$(pwd)
SECONDS_PER_TARGET=${1:-${JB_FUZZ_SECONDS:-20}}
shift || true
JOBS=${JB_JOBS:-2}
BUILD=$ROOT/build-fuzz
CORPUS=$ROOT/tests/fuzz/corpus
say() { printf '\033[1m[fuzz]\033[0m %s\n' "$*" >&2; }

command -v clang++-14 >/dev/null || { say "clang++-14 is missing (apt-get install clang-14 libclang-rt-14-dev)"; exit 2; }
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake --preset fuzz "${launcher[@]}" >/dev/null
cmake --build --preset fuzz -j "$JOBS"

say "replaying the stored corpus"
ctest --preset fuzz -j "$JOBS"

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for b in "$BUILD"/fuzz/fuzz_*; do
        [ -x "$b" ] && targets+=("$(basename "$b" | sed 's/^fuzz_//')")
    done
fi
[ ${#targets[@]} -gt 0 ] || { say "no fuzz target was built"; exit 2; }

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
passed=0
failed=0
failures=()
for t in "${targets[@]}"; do
    bin=$BUILD/fuzz/fuzz_$t
    [ -x "$bin" ] || { say "fuzz_$t was not built"; failed=$((failed + 1)); failures+=("$t (not built)"); continue; }
    mkdir -p "$CORPUS/$t"
    work=$(mktemp -d)
    opts=(-max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 -max_len=65536
        -print_final_stats=1 -artifact_prefix="$CORPUS/$t/")
    case "$t" in record | jobfile) opts+=(-dict="$ROOT/tests/fuzz/json.dict") ;; esac
    say "fuzz_$t for ${SECONDS_PER_TARGET}s"
    before=$(ls "$CORPUS/$t")
    if "$bin" "${opts[@]}" "$work" "$CORPUS/$t" >"$work.log" 2>&1; then
        passed=$((passed + 1))
        grep -E '^(#[0-9]+ *DONE|stat::number_of_executed_units)' "$work.log" | sed 's/^/  /' >&2 || true
        if [ "${JB_FUZZ_MERGE:-0}" = 1 ]; then
            "$bin" -merge=1 "$CORPUS/$t" "$work" >/dev/null 2>&1 && say "merged new inputs into tests/fuzz/corpus/$t/"
        fi
    else
        failed=$((failed + 1))
        new=$(comm -13 <(printf '%s\n' "$before") <(ls "$CORPUS/$t") | tr '\n' ' ')
        failures+=("$t: kept ${new:-no input} in tests/fuzz/corpus/$t/")
        tail -n 60 "$work.log" >&2
        say "fuzz_$t failed; the input that did it is kept in tests/fuzz/corpus/$t/: ${new:-none written}"
    fi
    rm -rf "$work" "$work.log"
done
for f in "${failures[@]}"; do say "FAILED $f"; done
[ $failed -eq 0 ] || say "commit the kept inputs with the fix: they replay in ctest (fuzz_<target>_corpus)"
echo "fuzz: $passed passed, $failed failed"
[ $failed -eq 0 ]

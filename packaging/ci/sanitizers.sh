#!/usr/bin/env bash
# packaging/ci/sanitizers.sh [asan] [tsan]: builds and tests under the sanitizer presets of
# CMakePresets.json, warnings as errors (default: both).
#   asan: ASan + UBSan, the whole suite less the "packaging" label (ctest --preset asan, build-asan/)
#   tsan: TSan, the tests labelled "threads" (ctest --preset tsan, build-tsan/)
# Any report of a sanitizer fails its test (halt_on_error / abort_on_error). Suppressions of
# reports inside uninstrumented system libraries (Qt, fontconfig, ...) are in
# packaging/ci/{lsan,tsan}.supp, each with the reason; the test presets point at them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
JOBS=${JB_JOBS:-2}
say() { printf '\033[1m[sanitizers]\033[0m %s\n' "$*" >&2; }

presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(asan tsan)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

status=0
for p in "${presets[@]}"; do
    case "$p" in asan | tsan) ;; *) say "unknown preset '$p' (asan or tsan)"; exit 2 ;; esac
    start=$(date +%s)
    say "configuring and building the $p preset ($JOBS jobs)"
    cmake --preset "$p" "${launcher[@]}" >/dev/null
    cmake --build --preset "$p" -j "$JOBS"
    say "testing under $p"
    # The test presets set the sanitizers' options (and the suppression files).
    if ! ctest --preset "$p" -j "$JOBS"; then
        status=1
        say "$p: failures above"
    fi
    say "$p took $(($(date +%s) - start)) s"
done
exit $status

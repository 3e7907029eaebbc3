#!/usr/bin/env bash
# run_installed.sh PACKAGE_DIR VERSION: unpacks the .deb into a scratch root and runs the
# installed joulebench-cli from there, in a clean environment and away from the build tree, so
# a file missing from the package (or a program that only works from build/) fails here.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
out=$1
version=$2
need dpkg-deb dpkg
deb=$(the_one "$out"/*.deb)

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root/pkg"
bin=$root/pkg/usr/bin
cli=$bin/joulebench-cli
demo=$bin/joulebench-demo-decoder
[ -x "$cli" ] || fail "the package has no executable usr/bin/joulebench-cli"
[ -x "$demo" ] || fail "the package has no executable usr/bin/joulebench-demo-decoder"

# An installed program must not look into the build tree for its libraries.
if command -v readelf >/dev/null 2>&1; then
    for p in "$bin"/*; do
        rpath=$(readelf -d "$p" 2>/dev/null | grep -E 'R(UN)?PATH' || true)
        [ -z "$rpath" ] || fail "$(basename "$p") keeps a build-time library path: $rpath"
    done
fi

# run NAME CMD...: runs CMD with a minimal environment from an empty folder; keeps its output.
mkdir "$root/cwd" "$root/home"
run() {
    local name=$1
    shift
    local rc=0
    # The sanitizers' options pass through (a package built by the asan preset).
    local keep=()
    local v
    for v in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS TSAN_OPTIONS; do
        [ -n "${!v:-}" ] && keep+=("$v=${!v}")
    done
    (cd "$root/cwd" && env -i PATH=/usr/bin:/bin HOME="$root/home" LANG=C.UTF-8 "${keep[@]}" "$@") \
        >"$root/$name.out" 2>"$root/$name.err" || rc=$?
    echo "== $name: exit $rc"
    return $rc
}
show() {  # NAME: prints what a command wrote, for the failure message
    printf -- '-- stdout:\n%s\n-- stderr:\n%s\n' "$(head -c 4000 "$root/$1.out")" "$(head -c 4000 "$root/$1.err")"
}

run version "$cli" --version || fail "joulebench-cli --version failed: $(show version)"
grep -qx "joulebench-cli $version" "$root/version.out" ||
    fail "joulebench-cli --version says '$(head -n1 "$root/version.out")', expected 'joulebench-cli $version'"

# counters: every counter, whether it is readable here or why not; sim always is.
run counters "$cli" counters || fail "joulebench-cli counters failed: $(show counters)"
grep -qE '^ *sim[[:space:]]+(yes|available)\b' "$root/counters.out" ||
    fail "joulebench-cli counters does not list sim as readable: $(show counters)"

# A short measurement of the installed demo decoder on the simulated counter: the record (JSON
# on stdout) must come out whole, with its one round.
run measure "$cli" measure --rounds 1 --k 1 --idle-s 0.5 --counter sim -- "$demo" serve --jobs 1 ||
    fail "joulebench-cli measure of the installed demo decoder failed: $(show measure)"
head -c1 "$root/measure.out" | grep -q '{' || fail "measure did not write a JSON record on stdout: $(show measure)"
tail -c 3 "$root/measure.out" | grep -q '}' || fail "measure's JSON record is cut short: $(show measure)"
grep -q '"rounds"' "$root/measure.out" || fail "measure's record has no \"rounds\": $(show measure)"
grep -q '"sim"' "$root/measure.out" || fail "measure's record has no \"sim\" counter figures: $(show measure)"
rounds=$(grep -c '"decodes"' "$root/measure.out" || true)
[ "$rounds" -ge 1 ] || fail "measure's record has no round with decodes: $(show measure)"
# The dashboard, where the package has it: starts from the scratch root (every library and
# plugin it needs resolves) far enough to print its version.
if [ -e "$bin/joulebench" ]; then
    run gui-version env QT_QPA_PLATFORM=offscreen "$bin/joulebench" --version ||
        fail "joulebench --version failed: $(show gui-version)"
    grep -q "$version" "$root/gui-version.out" || fail "joulebench --version does not say $version: $(show gui-version)"
fi
echo "ok: the installed joulebench-cli $version runs, lists its counters and measures the installed demo decoder"

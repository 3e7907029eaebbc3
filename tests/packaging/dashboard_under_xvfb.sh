#!/usr/bin/env bash
# dashboard_under_xvfb.sh BIN_DIR OUT_PNG: the dashboard opens in a real X server (Xvfb, as
# `./dev run` uses on a machine without a display) and ImageMagick grabs what a user would see:
# the screenshot is the screen's size and is not blank. Fresh settings in a temporary folder.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../../packaging/xvfb.sh"
bin=$1
png=$2
need Xvfb xvfb
need import imagemagick
need identify imagemagick
[ -x "$bin/joulebench" ] || fail "$bin/joulebench is not built"

tmp=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT

xvfb_start 1024x700 120 || fail "Xvfb did not start"
pids+=("$XVFB_PID")

export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data"
# Under AddressSanitizer (the asan preset runs this test too): Debian's libxkbcommon-x11 hands
# strndup a buffer that is not NUL-terminated within its length, which ASan's strndup
# interceptor reports as an overflow inside the system library, before any JouleBench code runs.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}intercept_strndup=0"
"$bin/joulebench" >"$tmp/gui.log" 2>&1 &
gui=$!
pids+=("$gui")
# Poll until the window is drawn: an empty Xvfb screen has one colour, the dashboard hundreds.
colours=0
for _ in $(seq 60); do
    kill -0 "$gui" 2>/dev/null || fail "the dashboard exited under Xvfb: $(cat "$tmp/gui.log")"
    if import -window root "$png" 2>/dev/null; then
        colours=$(identify -format '%k' "$png")
        [ "$colours" -gt 50 ] && break
    fi
    sleep 0.5
done
[ "$colours" -gt 50 ] || fail "the screen stayed blank ($colours colours) with the dashboard started: $(cat "$tmp/gui.log")"
size=$(identify -format '%wx%h' "$png")
[ "$size" = 1024x700 ] || fail "the screenshot is $size, not the screen's 1024x700"
kill "$gui"
wait "$gui" 2>/dev/null || true
echo "ok: the dashboard drew $colours colours on a 1024x700 Xvfb screen ($png)"

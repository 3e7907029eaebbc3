#!/usr/bin/env bash
# Screenshots of the dashboard for the README and docs (docs/screenshots/*.png), taken on a real
# run: the `sim` counter and the bundled demo decoder, under a virtual X server (Xvfb), grabbed
# with ImageMagick's `import -window root`. `./dev screenshot` runs it after a build.
#
#   packaging/screenshots.sh [BUILD_DIR]     (default: build)
#
# It uses fresh settings in a temporary folder (your own remembered form and records are not
# touched) and writes:
#   running.png    the Measure page in the middle of the run
#   dashboard.png  the same run finished: chart, verdicts, summary
#   record.png     the saved record opened again, read-only (`joulebench RECORD`)
# Environment: JB_SCREENSHOT_DIR (default docs/screenshots), JB_SCREEN (default 1280x800: the
# size resources/*.metainfo.xml announces for dashboard.png).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
OUT=${JB_SCREENSHOT_DIR:-$ROOT/docs/screenshots}
SCREEN=${JB_SCREEN:-1280x800}
BIN=$BUILD/bin
say() { printf '[screenshots] %s\n' "$*" >&2; }
. "$ROOT/packaging/xvfb.sh"

for tool in Xvfb import; do
  command -v "$tool" >/dev/null || { say "$tool is missing (Debian: apt-get install xvfb imagemagick)"; exit 2; }
done
for prog in joulebench joulebench-demo-decoder; do
  [ -x "$BIN/$prog" ] || { say "$BIN/$prog is not built: run ./dev build first"; exit 2; }
done

TMP=$(mktemp -d)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

xvfb_start "$SCREEN" || exit 1
PIDS+=("$XVFB_PID")
# Fresh settings and records, and the plan the dashboard offers on a first start, with the
# simulated counter whatever this machine can read (the screenshots must not depend on it), and
# full-HD images so that each busy window spans several sample periods (with the decoder's
# default size a round can be over in two periods: too short for a busy figure and a verdict).
export XDG_CONFIG_HOME="$TMP/config" XDG_DATA_HOME="$TMP/data"
mkdir -p "$XDG_CONFIG_HOME/JouleBench"
cat >"$XDG_CONFIG_HOME/JouleBench/joulebench.conf" <<EOF
[measure]
command=$BIN/joulebench-demo-decoder serve --jobs 4 --size 1920x1080
label=demo
rounds=5
k=2
idle_s=3
sample_ms=100
counters=sim
meta="{\"codec\": \"png\", \"images\": 4}"
EOF

shot() {
  import -window root "$OUT/$1"
  say "wrote $OUT/$1"
}

mkdir -p "$OUT"
GEOMETRY="${SCREEN}+0+0"
say "starting a run on display $DISPLAY"
"$BIN/joulebench" --start -geometry "$GEOMETRY" >"$TMP/gui.log" 2>&1 &
GUI=$!
PIDS+=($GUI)

# The run's record appears in the records folder when it ends (complete or aborted).
RECORDS="$XDG_DATA_HOME/JouleBench/joulebench/records"
sleep 14
shot running.png
for _ in $(seq 240); do
  compgen -G "$RECORDS/*.json" >/dev/null && break
  kill -0 "$GUI" 2>/dev/null || { say "the dashboard exited early:"; cat "$TMP/gui.log" >&2; exit 1; }
  sleep 0.5
done
RECORD=$(ls "$RECORDS"/*.json 2>/dev/null | head -n 1)
[ -n "$RECORD" ] || { say "the run did not finish in 2 minutes"; cat "$TMP/gui.log" >&2; exit 1; }
sleep 1  # the last redraw
shot dashboard.png
kill "$GUI" 2>/dev/null || true
wait "$GUI" 2>/dev/null || true

"$BIN/joulebench" -geometry "$GEOMETRY" "$RECORD" >"$TMP/gui2.log" 2>&1 &
PIDS+=($!)
sleep 4
shot record.png
say "done: $(ls "$OUT"/*.png | xargs -n1 basename | tr '\n' ' ')"

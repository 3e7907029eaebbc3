#!/usr/bin/env bash
# Every page of the dashboard at the laptop size and a large one (docs/screenshots/<page>-<size>.png),
# under Xvfb with ImageMagick's `import -window root`: the Measure page during and after a simulated
# demo run and with "Compare workloads" ready, the Inspector on the comparison fixture (its
# records and comparison.json), the Noise lab, the Jobs page on the documented example job file,
# and the Library. Fresh settings in a temporary folder.
#
#   packaging/page_screenshots.sh [BUILD_DIR]      (sizes: JB_SIZES, default "1280x720 1600x1000")
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
OUT=${JB_SCREENSHOT_DIR:-$ROOT/docs/screenshots}
SIZES=${JB_SIZES:-1280x720 1600x1000}
BIN=$BUILD/bin
say() { printf '[page-screenshots] %s\n' "$*" >&2; }
. "$ROOT/packaging/xvfb.sh"
for tool in Xvfb import; do
  command -v "$tool" >/dev/null || { say "$tool is missing (Debian: apt-get install xvfb imagemagick)"; exit 2; }
done
[ -x "$BIN/joulebench" ] || { say "$BIN/joulebench is not built"; exit 2; }

TMP=$(mktemp -d)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT
mkdir -p "$OUT"

# One dashboard on a fresh X server of SIZE: ARGS, wait SECONDS, grab NAME-SIZE.png.
shoot() {
  local size=$1 name=$2 wait_s=$3
  shift 3
  xvfb_start "$size" || exit 1
  local xvfb=$XVFB_PID
  "$BIN/joulebench" -geometry "${size}+0+0" "$@" >"$TMP/gui.log" 2>&1 &
  local gui=$!
  sleep "$wait_s"
  import -window root "$OUT/$name-$size.png"
  say "wrote $OUT/$name-$size.png"
  kill "$gui" 2>/dev/null || true
  wait "$gui" 2>/dev/null || true
  kill "$xvfb" 2>/dev/null || true
  wait "$xvfb" 2>/dev/null || true
}

export XDG_CONFIG_HOME="$TMP/config" XDG_DATA_HOME="$TMP/data"
mkdir -p "$XDG_CONFIG_HOME/JouleBench"
CMP=$ROOT/tests/fixtures/comparison
# The bundled demo decoder, or (a build of the dashboard alone) the tests' fake decoder.
CHILD="$BIN/joulebench-demo-decoder serve --jobs 4 --size 1920x1080"
[ -x "$BIN/joulebench-demo-decoder" ] || CHILD="$BUILD/tests/fakechild serve --jobs 4 --job-ms 150"
for size in $SIZES; do
  cat >"$XDG_CONFIG_HOME/JouleBench/joulebench.conf" <<EOF
[measure]
command=$CHILD
label=demo
rounds=3
k=2
idle_s=2
sample_ms=100
counters=sim
EOF
  shoot "$size" measure-running 9 --start
  shoot "$size" measure-done 26 --start
  shoot "$size" inspector 6 --page inspector "$CMP/comparison.json"
  shoot "$size" noise-lab 14 --page noise
  shoot "$size" jobs 5 --jobs "$ROOT/docs/examples/jobs.json"
  shoot "$size" library 4 --page library
done

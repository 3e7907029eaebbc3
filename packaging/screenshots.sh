#!/usr/bin/env bash
# packaging/screenshots.sh [BUILD_DIR] [SECONDS]: starts the dashboard under Xvfb on the
# first-start demo run (the sim counter and the bundled demo decoder, pressed Start with
# --start), lets it measure for SECONDS (default 25, or $JB_SCREENSHOT_SECONDS) and saves the
# screen to docs/screenshots/dashboard.png: the screenshot the README and the AppStream
# metainfo show. `./dev screenshot` runs it after a build.
# Needs xvfb-run (xvfb, xauth) and ImageMagick's import (imagemagick): ./dev deps installs them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
BUILD=${1:-build}
WAIT_S=${2:-${JB_SCREENSHOT_SECONDS:-25}}
OUT=$ROOT/docs/screenshots
SIZE=1280x800  # the metainfo's <image width= height=>
say() { printf '\033[1m[screenshots]\033[0m %s\n' "$*" >&2; }

case "$BUILD" in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
app=$BUILD/bin/joulebench
[ -x "$app" ] || { say "$app is missing: build the dashboard first (./dev build)"; exit 2; }
for t in xvfb-run import; do
    command -v "$t" >/dev/null || { say "$t is missing (apt-get install xvfb xauth imagemagick)"; exit 2; }
done
mkdir -p "$OUT"

# A scratch settings folder: the dashboard shows its first-start form (sim + demo decoder),
# not whatever this machine's user last ran.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/config" "$scratch/data"

say "measuring the demo decoder on sim for ${WAIT_S}s under Xvfb ($SIZE)"
XDG_CONFIG_HOME=$scratch/config XDG_DATA_HOME=$scratch/data QT_QPA_PLATFORM=xcb \
    xvfb-run -a -s "-screen 0 ${SIZE}x24" bash -c '
        set -euo pipefail
        # No window manager under Xvfb: -geometry puts the window over the whole screen.
        "$1" --start -geometry "$2+0+0" &
        pid=$!
        sleep "$3"
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "the dashboard exited before the screenshot" >&2
            exit 1
        fi
        import -window root "$4"
        kill "$pid"
        wait "$pid" 2>/dev/null || true
    ' screenshot "$app" "$SIZE" "$WAIT_S" "$OUT/dashboard.png"
say "wrote docs/screenshots/dashboard.png; look at it, then commit it"

# Sourced by the scripts that run the dashboard on a private X server (packaging/screenshots.sh,
# packaging/page_screenshots.sh, tests/packaging/dashboard_under_xvfb.sh):
#   xvfb_start WxH [FIRST]   starts Xvfb (24-bit) on the first free display from FIRST (default
#                            99), waits up to 10 s for its socket, exports DISPLAY and
#                            QT_QPA_PLATFORM=xcb and sets XVFB_PID; returns 1 with Xvfb's own
#                            words on stderr where it did not start.
# The caller stops XVFB_PID (kill, wait) when done.
xvfb_start() {
  local size=$1 n=${2:-99} log
  while [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
  log=$(mktemp)
  Xvfb ":$n" -screen 0 "${size}x24" -nolisten tcp >"$log" 2>&1 &
  XVFB_PID=$!
  for _ in $(seq 100); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done
  if [ ! -e "/tmp/.X11-unix/X$n" ]; then
    echo "Xvfb did not start on :$n: $(cat "$log")" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
  export DISPLAY=":$n" QT_QPA_PLATFORM=xcb
}

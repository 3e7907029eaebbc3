#!/usr/bin/env bash
# The dashboard's CPU during the first-start run (the sim counter at 100 ms and the bundled demo
# decoder, as `joulebench --start` runs them), under Xvfb, which renders in software:
#
#   bench/dashboard_cpu.sh BIN_DIR[,BIN_DIR...] [ROUNDS] [FROM_S] [SECONDS]
#
# BIN_DIR holds joulebench and joulebench-demo-decoder (a build's bin/). Each round starts the
# dashboard with an empty HOME (no saved settings), sums its threads' CPU time FROM_S seconds in
# (default 8) and again SECONDS later (default 15), and prints the difference as a share of one
# core; the decoder child is not counted. The CPU time is each thread's se.sum_exec_runtime in
# /proc/PID/task/TID/sched (to the microsecond), where the kernel has it, else utime + stime of
# /proc/PID/stat (clock ticks: at 100 Hz over 15 s one tick is 0.07 % of a core, too coarse to
# tell two builds apart below 1 %). Several BIN_DIRs separated by commas (before,after) run in
# turn within each round, as docs/BENCHMARKS.md's side-by-side figures were taken. Not a test:
# the figure depends on the machine and its load.
set -euo pipefail
dirs=$1; rounds=${2:-5}; from=${3:-8}; secs=${4:-15}
command -v xvfb-run > /dev/null || { echo "dashboard_cpu.sh: xvfb-run is missing (./dev deps installs it)" >&2; exit 2; }
tick=$(getconf CLK_TCK)
# The process's CPU time so far, in ms.
cpu_ms() {
    local pid=$1
    if [ -r "/proc/$pid/sched" ] && grep -q sum_exec_runtime "/proc/$pid/sched"; then
        cat /proc/"$pid"/task/*/sched 2> /dev/null | awk '/se.sum_exec_runtime/ { t += $3 } END { printf "%.3f", t }'
    else
        awk -v tick="$tick" '{ printf "%.3f", ($14 + $15) * 1000 / tick }' "/proc/$pid/stat"
    fi
}
one() {
    local bin=$1 home
    [ -x "$bin/joulebench" ] || { echo "dashboard_cpu.sh: no joulebench in $bin" >&2; exit 2; }
    home=$(mktemp -d)
    HOME=$home xvfb-run -a -s "-screen 0 1400x900x24" bash -c '
        '"$(declare -f cpu_ms)"'
        tick=$4
        "$1/joulebench" --start > /dev/null 2>&1 & pid=$!
        sleep "$2"; a=$(cpu_ms $pid)
        sleep "$3"; b=$(cpu_ms $pid)
        kill $pid; wait $pid 2> /dev/null || true
        awk -v a="$a" -v b="$b" -v s="$3" "BEGIN { printf \"%.3f\", (b - a) / 10 / s }"' \
        _ "$bin" "$from" "$secs" "$tick"
    rm -rf "$home"
}
IFS=, read -r -a bins <<< "$dirs"
printf 'round'; for b in "${bins[@]}"; do printf '\t%s' "$b"; done; printf '\tload\n'
for r in $(seq "$rounds"); do
    printf '%s' "$r"
    for b in "${bins[@]}"; do printf '\t%s %%' "$(one "$b")"; done
    printf '\t%s\n' "$(cut -d' ' -f1 /proc/loadavg)"
done

#!/usr/bin/env bash
# gpu_check.sh [--bin DIR] [--gpu N] [--fake DIR] OUT_DIR: the prepared GPU check (docs/GPU.md).
# On a machine with an NVIDIA GPU and its driver, in about two minutes (each step has a time
# limit; five minutes at most):
#   1. joulebench-cli counters: the NVML energy counter (nvml:N) and its power integration
#      (nvml-power:N) are readable;
#   2. the GPU workload measured in rounds with idle brackets, both counters side by side:
#      marginal J per decode (one decode: one kernel launch), its noise, verdicts, and how far
#      the two counters agree;
#   3. a job file of three GPU jobs through the queue: one that completes holding a known amount
#      of memory (the manifest's peak against what nvidia-smi showed for it), one past its
#      timeout, one that double-forks a SIGTERM-deaf process holding GPU memory (after the kill
#      neither that process nor any other of the job's shows in nvidia-smi);
#   4. joulebench-cli characterize for nvml:N and nvml-power:N (issue 31): each counter's update
#      period, step response, averaging window and burst coverage, driven by the GPU workload;
#      the profiles land in OUT_DIR (profile_nvml.json, profile_nvml-power.json) and in the summary;
#   5. everything in OUT_DIR: counters.txt, measure.json (+ its stderr), jobs/ (run folders and
#      manifests), nvidia_smi_apps.txt, summary.txt. Exit 0 when every check passed.
# It needs only the bundle (packaging/portable.sh): joulebench-cli and joulebench-gpu-load are
# looked up beside this script, else in --bin DIR.
#
# --fake DIR runs the same steps against fakes and with short timings, for the tests: DIR holds
# libnvidia-ml.so.1 (a fake NVML), libcuda.so.1 (a fake CUDA driver) and nvidia-smi (a fake one).
set -uo pipefail

usage() {
    echo "usage: gpu_check.sh [--bin DIR] [--gpu N] [--fake DIR] OUT_DIR" >&2
    exit 2
}
bin=
gpu=${JB_GPU_CHECK_GPU:-0}
fake=
out=
while [ $# -gt 0 ]; do
    case "$1" in
    --bin) [ $# -ge 2 ] || usage; bin=$2; shift 2 ;;
    --gpu) [ $# -ge 2 ] || usage; gpu=$2; shift 2 ;;
    --fake) [ $# -ge 2 ] || usage; fake=$2; shift 2 ;;
    -h | --help) sed -n '2,22p' "$0"; exit 0 ;;
    -*) echo "gpu_check.sh: unknown option $1" >&2; usage ;;
    *) [ -z "$out" ] || usage; out=$1; shift ;;
    esac
done
[ -n "$out" ] || usage
case "$gpu" in '' | *[!0-9]*) echo "gpu_check.sh: --gpu takes a GPU index, got '$gpu'" >&2; exit 2 ;; esac
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ -n "$bin" ] || bin=$here
bin=$(cd "$bin" 2>/dev/null && pwd) || { echo "gpu_check.sh: no folder $bin" >&2; exit 2; }
cli=$bin/joulebench-cli
load=$bin/joulebench-gpu-load
for p in "$cli" "$load"; do
    [ -x "$p" ] || { echo "gpu_check.sh: $p is missing (run it from the bundle, or pass --bin DIR)" >&2; exit 2; }
done
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
[ -z "$(ls -A "$out")" ] || { echo "gpu_check.sh: $out is not empty (give a new folder)" >&2; exit 2; }

# Timings: real GPU, or the fakes.
smi=nvidia-smi
nvml=libnvidia-ml.so.1
if [ -n "$fake" ]; then
    fake=$(cd "$fake" && pwd) || exit 2
    smi=$fake/nvidia-smi
    nvml=$fake/libnvidia-ml.so.1
    export JB_CUDA_LIBRARY=$fake/libcuda.so.1
    rounds=2 k=2 idle_s=0.3 jobs=4 iters=16 buffer_mib=1
    hold_mib=64 daemon_mib=32 run_s=1.5 timeout_s=1.5 grace_s=0.5 job_idle_s=0.2 mem_period=0.1 smi_period=0.1
    char_s=5
else
    rounds=${JB_GPU_CHECK_ROUNDS:-5} k=${JB_GPU_CHECK_K:-25} idle_s=${JB_GPU_CHECK_IDLE_S:-3}
    jobs=10 iters=4096 buffer_mib=256
    hold_mib=1024 daemon_mib=512 run_s=12 timeout_s=8 grace_s=3 job_idle_s=2 mem_period=0.5 smi_period=0.5
    char_s=${JB_GPU_CHECK_CHARACTERIZE_S:-40}
fi
command -v "$smi" >/dev/null 2>&1 || [ -x "$smi" ] || smi=

summary=$out/summary.txt
failures=0
say() { printf '%s\n' "$*" | tee -a "$summary"; }
check() {  # check OK|FAIL TEXT
    if [ "$1" = OK ]; then say "  ok    $2"; else say "  FAIL  $2"; failures=$((failures + 1)); fi
}
# limit SECONDS CMD...: runs CMD with a time limit where timeout(1) exists.
limit() {
    local s=$1
    shift
    if command -v timeout >/dev/null 2>&1; then timeout --kill-after=10 "$s" "$@"; else "$@"; fi
}

say "JouleBench GPU check, $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(uname -n)${fake:+ (FAKE mode: $fake)}"
say "$("$cli" --version), GPU $gpu, output $out"
if [ -n "$smi" ]; then
    "$smi" --query-gpu=index,uuid,name,memory.total --format=csv,noheader,nounits >"$out/nvidia_smi_gpus.txt" 2>&1
    say "nvidia-smi: $(grep -E "^$gpu," "$out/nvidia_smi_gpus.txt" | head -n1)"
else
    check FAIL "nvidia-smi not found (the jobs' memory cannot be checked against it)"
fi

# 1. Counters.
say ""
say "1. counters"
limit 30 "$cli" counters --nvml-library "$nvml" >"$out/counters.txt" 2>&1
# why_of SPEC: the "why:" line of SPEC's entry (its indented lines: scope, why, ...).
why_of() {
    awk -v spec="$1" '
        $1 == spec { inside = 1; next }
        inside && /^[^ ]/ { exit }
        inside && /^ *why: / { sub(/^ *why: /, ""); print; exit }' "$out/counters.txt"
}
for spec in "nvml:$gpu" "nvml-power:$gpu"; do
    line=$(grep -E "^ *${spec}[[:space:]]" "$out/counters.txt" | head -n1)
    if grep -qE "^ *${spec}[[:space:]]+yes" <<<"$line"; then
        check OK "$spec readable: $(sed -E 's/^ *[^ ]+ +[^ ]+ +//' <<<"$line")"
    else
        why=$(why_of "$spec")
        if [ -z "$line" ]; then  # not listed: NVML did not load; the plain "nvml" entry says why
            why=$(why_of nvml)
        fi
        check FAIL "$spec not readable: ${why:-not listed} (counters.txt)"
    fi
done

# 2. The GPU workload measured with both counters.
say ""
say "2. measure: $rounds rounds of k=$k passes of $jobs launches (${buffer_mib} MiB, $iters FMAs per element), idle brackets ${idle_s} s"
export CUDA_VISIBLE_DEVICES=$gpu CUDA_DEVICE_ORDER=PCI_BUS_ID
limit 120 "$cli" measure --label gpu-load --rounds "$rounds" --k "$k" --idle-s "$idle_s" \
    --counter "nvml:$gpu" --counter "nvml-power:$gpu" --nvml-library "$nvml" --samples \
    --meta "{\"check\": \"gpu_check.sh\", \"fake\": $([ -n "$fake" ] && echo true || echo false)}" \
    --out "$out/measure.json" -- "$load" serve --device 0 --jobs "$jobs" --iterations "$iters" --buffer-mib "$buffer_mib" \
    2>"$out/measure.stderr"
rc=$?
unset CUDA_VISIBLE_DEVICES CUDA_DEVICE_ORDER
if [ $rc -eq 0 ]; then check OK "measure completed"; else check FAIL "measure ended with exit $rc (measure.stderr: $(tail -n1 "$out/measure.stderr"))"; fi
# Per counter, from the round lines: J per decode per round, median, mean, sd; verdict counts.
awk -v nvml="nvml:$gpu" -v pw="nvml-power:$gpu" '
    / round [0-9]+\/[0-9]+: / {
        n = split($0, part, ", ")
        split(part[1], w, " ")
        d = w[4] + 0
        rounds++
        for (i = 2; i <= n; i++) {
            split(part[i], c, " ")
            spec = c[1]; j = c[3] + 0; v = c[5]; gsub(/[()]/, "", v)
            if (d > 0) { jpd[spec, ++cnt[spec]] = j / d }
            marg[spec, rounds] = j
            verdicts[spec] = verdicts[spec] (verdicts[spec] == "" ? "" : " ") v
            specs[spec] = 1
        }
    }
    function median(spec, m,   i, k, t, a) {
        for (i = 1; i <= m; i++) a[i] = jpd[spec, i]
        for (i = 2; i <= m; i++) { t = a[i]; for (k = i - 1; k >= 1 && a[k] > t; k--) a[k + 1] = a[k]; a[k + 1] = t }
        return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
    }
    END {
        for (s in specs) {
            m = cnt[s]; sum = 0; ss = 0
            for (i = 1; i <= m; i++) sum += jpd[s, i]
            mean = m ? sum / m : 0
            for (i = 1; i <= m; i++) ss += (jpd[s, i] - mean) ^ 2
            sd = m > 1 ? sqrt(ss / (m - 1)) : 0
            printf "  %-14s marginal J per decode: median %.4g, mean %.4g, sd %.3g (%.1f%%) over %d rounds; verdicts: %s\n", \
                s, m ? median(s, m) : 0, mean, sd, mean != 0 ? 100 * sd / (mean < 0 ? -mean : mean) : 0, m, verdicts[s]
        }
        if ((nvml in specs) && (pw in specs)) {
            a = 0; b = 0
            for (i = 1; i <= rounds; i++) { a += marg[nvml, i]; b += marg[pw, i] }
            if (a != 0) printf "  marginal energy, %s / %s: %.3f (all rounds)\n", pw, nvml, b / a
            else printf "  marginal energy, %s / %s: no ratio (%s marginal is 0)\n", pw, nvml, nvml
        }
    }' "$out/measure.stderr" | tee -a "$summary"
# Busy power and counter cadence, from the record (pretty-printed: one key per line).
if [ -s "$out/measure.json" ]; then
    # Layout (indent 1): rounds[i] at 2 spaces, its counters at 3, their brackets at 4, fields at 5.
    awk -v nvml="nvml:$gpu" -v pw="nvml-power:$gpu" '
        /^ "rounds": \[$/ { inr = 1 }
        /^ "[^"]+": / && !/^ "rounds"/ { inr = 0 }
        inr && /^   "[^"]+": \{$/ { cur = $1; gsub(/^"|":$/, "", cur) }
        inr && /^    "(busy|idle_before|idle_after)": \{$/ { br = $1; gsub(/^"|":$/, "", br) }
        inr && /^     "mean_w": / && br == "busy" { v = $2; sub(/,$/, "", v); busy[cur] += v; nb[cur]++ }
        inr && /^     "intervals": / { v = $2; sub(/,$/, "", v); iv[cur] += v }
        inr && /^     "advanced": / { v = $2; sub(/,$/, "", v); adv[cur] += v }
        inr && /^     "span_ns": / { v = $2; sub(/,$/, "", v); span[cur] += v }
        END {
            for (s in nb) {
                printf "  %-14s busy power %.1f W (mean of rounds); the counter advanced in %d of %d intervals", s, busy[s] / nb[s], adv[s], iv[s]
                if (adv[s] > 0) printf " (a new value every %.0f ms)", span[s] / adv[s] / 1e6
                printf "\n"
            }
            if (nb[nvml] && nb[pw] && busy[nvml] > 0)
                printf "  busy power, %s / %s: %.3f\n", pw, nvml, (busy[pw] / nb[pw]) / (busy[nvml] / nb[nvml])
        }' "$out/measure.json" | tee -a "$summary"
    # The energy counter's cadence (the record's sampler figure) and resolution (the raw samples).
    awk -v nvml="nvml:$gpu" '
        function gcd(a, b,   t) { while (b) { t = a % b; a = b; b = t } return a }
        /^ "[^"]+": / { sec = $1; gsub(/^"|":$/, "", sec) }
        (sec == "sampler" || sec == "samples") && /^  "[^"]+": \{$/ { cur = $1; gsub(/^"|":$/, "", cur) }
        sec == "sampler" && cur == nvml && /^   "update_cadence_ms": / { cad = $2; sub(/,$/, "", cad) }
        sec == "samples" && cur == nvml && /^   "nj": \[$/ { innj = 1; next }
        innj && /^   \]/ { innj = 0 }
        innj { v = $1; sub(/,$/, "", v); v += 0; n++; if (v > 0) { if (!minnz || v < minnz) minnz = v; g = gcd(g, v) } }
        END {
            if (cad == "" && !n) exit
            printf "  %-14s update cadence %s ms (the record'"'"'s sampler figure)", nvml, cad == "" ? "unknown" : cad
            if (minnz) printf "; over %d raw intervals the least energy in one is %.3f mJ and every one is a multiple of %.3f mJ (the finest step seen)", n, minnz / 1e6, g / 1e6
            printf "\n"
        }' "$out/measure.json" | tee -a "$summary"
    ratio=$(sed -n 's/^  busy power, .* \/ .*: \([0-9.]*\)$/\1/p' "$summary" | tail -n1)
    if [ -z "$ratio" ]; then
        check FAIL "the two counters' busy power cannot be compared: no round of both has a busy bracket"
    elif awk -v r="$ratio" 'BEGIN { exit !(r > 0.85 && r < 1.15) }'; then
        check OK "the two counters agree on busy power within 15% ($ratio)"
    else
        check FAIL "the two counters disagree on busy power by more than 15% ($ratio)"
    fi
    limit 60 "$cli" summary "$out/measure.json" >"$out/measure_summary.txt" 2>&1
    sed 's/^/  | /' "$out/measure_summary.txt" | tee -a "$summary" >/dev/null
fi

# 2b. How the two counters behave (characterize): profile_<kind>.json each, and in the summary.
say ""
say "2b. characterize: nvml:$gpu and nvml-power:$gpu, about $char_s s each, driven by joulebench-gpu-load"
for spec in "nvml:$gpu" "nvml-power:$gpu"; do
    name=profile_${spec%%:*}.json
    CUDA_DEVICE_ORDER=PCI_BUS_ID limit $((char_s + 60)) "$cli" characterize \
        --counter "$spec" --nvml-library "$nvml" --load gpu --gpu-load "$load" --seconds "$char_s" \
        --out "$out/$name" 2>"$out/${name%.json}.stderr"
    rc=$?
    if [ $rc -eq 0 ] && [ -s "$out/$name" ]; then
        check OK "$spec characterized ($name): $(grep -E 'a new value every' "$out/${name%.json}.stderr" | tail -n1 | sed 's/^characterize [^:]*:[^:]*: //')"
        sed 's/^/  | /' "$out/$name" | tee -a "$summary" >/dev/null
    else
        check FAIL "$spec characterize ended with exit $rc (${name%.json}.stderr: $(tail -n1 "$out/${name%.json}.stderr"))"
    fi
done

# 3. Three jobs through the queue, nvidia-smi watched meanwhile.
say ""
say "3. jobs: hold ${hold_mib} MiB and complete; past the timeout; a SIGTERM-deaf double-forked process holding ${daemon_mib} MiB"
mkdir -p "$out/jobs"
q() { printf "'%s'" "$(sed "s/'/'\\\\''/g" <<<"$1")"; }  # a word for sh -c
smi_key=
[ -n "$smi" ] && smi_key="  \"nvidia_smi\": \"$smi\","
cat >"$out/jobs.json" <<EOF
{
  "comment": "written by gpu_check.sh",
  "output_root": "jobs",
  "allowed_gpus": [$gpu],
  "memory_sampling_period_seconds": $mem_period,
  "nvml_library": "$nvml",
$smi_key
  "energy": {"idle_seconds": $job_idle_s, "sampling_period_seconds": 0.1, "package_counter": null},
  "defaults": {"gpu": $gpu, "grace_seconds": $grace_s, "timeout_seconds": 120},
  "jobs": [
    {"name": "hold", "work": {"hold_mib": $hold_mib, "buffer_mib": $buffer_mib},
     "argv": ["/bin/sh", "-c", "echo \$\$ > \"\$JOULEBENCH_RUN_DIR/pid\"; exec $(q "$load") run --seconds $run_s --hold-mib $hold_mib --buffer-mib $buffer_mib --iterations $iters"]},
    {"name": "timeout", "timeout_seconds": $timeout_s,
     "argv": ["/bin/sh", "-c", "echo \$\$ > \"\$JOULEBENCH_RUN_DIR/pid\"; exec $(q "$load") run --seconds 600 --buffer-mib $buffer_mib --iterations $iters"]},
    {"name": "deaf_daemon", "timeout_seconds": $timeout_s, "work": {"hold_mib": $daemon_mib},
     "argv": ["/bin/sh", "-c", "( $(q "$load") run --seconds 600 --ignore-term --hold-mib $daemon_mib --buffer-mib $buffer_mib --iterations $iters </dev/null >/dev/null 2>&1 & echo \$! > \"\$JOULEBENCH_RUN_DIR/daemon.pid\" ); sleep 600"]}
  ]
}
EOF
watch_pid=
if [ -n "$smi" ]; then
    (
        while :; do
            t=$(date +%s.%N)
            "$smi" --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null | sed "s/^/$t, /"
            sleep "$smi_period"
        done
    ) >"$out/nvidia_smi_apps.txt" &
    watch_pid=$!
fi
(cd "$out" && limit 120 "$cli" jobs run jobs.json --nvml-library "$nvml" >"$out/jobs_run.txt" 2>&1)
rc=$?
[ -n "$watch_pid" ] && { kill "$watch_pid" 2>/dev/null; wait "$watch_pid" 2>/dev/null; }
say "  jobs run: exit $rc (1 is expected: two jobs do not complete)"
sed 's/^/  | /' "$out/jobs_run.txt" | tee -a "$summary" >/dev/null

manifest() { ls "$out"/jobs/"$1"/driver_*/manifest.json 2>/dev/null | head -n1; }
field() {  # field FILE KEY: a scalar of the sorted, indented manifest (the first match)
    sed -n "s/^ *\"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1" | head -n1
}
smi_max_mib() {  # the most nvidia-smi showed for any of the pids given
    local p best=0 v
    for p in "$@"; do
        v=$(awk -F', *' -v p="$p" '$2 == p && $3 + 0 > m { m = $3 + 0 } END { print m + 0 }' "$out/nvidia_smi_apps.txt" 2>/dev/null)
        [ "${v:-0}" -gt "$best" ] && best=$v
    done
    echo "$best"
}
for job in hold timeout deaf_daemon; do
    m=$(manifest "$job")
    if [ -z "$m" ]; then
        check FAIL "$job: no manifest under jobs/$job"
        continue
    fi
    status=$(field "$m" status)
    peak=$(field "$m" peak_process_gpu_memory_mib)
    src=$(field "$m" memory_source)
    say "  $job: status $status, peak GPU memory ${peak:-none} MiB ($src), $(field "$m" memory_samples) memory samples, driver wall $(field "$m" driver_wall_seconds) s"
    dir=$(dirname "$m")
    case $job in
    hold)
        [ "$status" = completed ] && check OK "hold completed" || check FAIL "hold ended $status"
        if awk -v p="${peak:-0}" -v h="$hold_mib" 'BEGIN { exit !(p >= h) }'; then
            check OK "hold: the manifest's peak ${peak} MiB covers the ${hold_mib} MiB held"
        else
            check FAIL "hold: the manifest's peak ${peak:-none} MiB is under the ${hold_mib} MiB held"
        fi
        if [ -n "$smi" ]; then
            pid=$(cat "$dir/pid" 2>/dev/null)
            seen=$(smi_max_mib $pid)
            if [ "$seen" -gt 0 ] && awk -v p="${peak:-0}" -v s="$seen" 'BEGIN { d = p - s; if (d < 0) d = -d; exit !(d <= 0.05 * s + 2) }'; then
                check OK "hold: nvidia-smi showed at most $seen MiB for pid $pid; the manifest says $peak MiB"
            else
                check FAIL "hold: nvidia-smi showed at most $seen MiB for pid ${pid:-?}; the manifest says ${peak:-none} MiB"
            fi
        fi
        ;;
    timeout)
        [ "$status" = timeout ] && check OK "timeout ended as timeout" || check FAIL "timeout ended $status"
        ;;
    deaf_daemon)
        [ "$status" = timeout ] && check OK "deaf_daemon ended as timeout" || check FAIL "deaf_daemon ended $status"
        grep -q '"sigkill_sent": true' "$m" && check OK "deaf_daemon: SIGKILL was needed and sent" ||
            check FAIL "deaf_daemon: the manifest has no SIGKILL sent"
        dpid=$(cat "$dir/daemon.pid" 2>/dev/null)
        if [ -z "$dpid" ]; then
            check FAIL "deaf_daemon: the job wrote no daemon.pid"
        elif kill -0 "$dpid" 2>/dev/null && [ "$(sed 's/.*) \(.\).*/\1/' "/proc/$dpid/stat" 2>/dev/null)" != Z ]; then
            check FAIL "deaf_daemon: its daemon $dpid still runs after the queue"
        else
            check OK "deaf_daemon: its daemon $dpid is gone"
        fi
        if [ -n "$smi" ]; then
            seen=$(smi_max_mib $dpid)
            [ "$seen" -gt 0 ] && check OK "deaf_daemon: nvidia-smi saw the daemon hold $seen MiB while it ran" ||
                check FAIL "deaf_daemon: nvidia-smi never showed the daemon's memory"
        fi
        ;;
    esac
done
if [ -n "$smi" ]; then
    pids=$(cat "$out"/jobs/*/driver_*/pid "$out"/jobs/*/driver_*/daemon.pid 2>/dev/null | tr '\n' ' ')
    "$smi" --query-compute-apps=pid,used_memory --format=csv,noheader,nounits >"$out/nvidia_smi_after.txt" 2>&1
    left=
    for p in $pids; do
        awk -F', *' -v p="$p" '$1 == p { f = 1 } END { exit !f }' "$out/nvidia_smi_after.txt" && left="$left $p"
    done
    [ -z "$left" ] && check OK "after the queue nvidia-smi shows none of the jobs' processes ($pids)" ||
        check FAIL "after the queue nvidia-smi still shows the jobs' processes$left"
fi

say ""
if [ "$failures" -eq 0 ]; then
    say "RESULT: PASS (every check passed)"
    exit 0
fi
say "RESULT: FAIL ($failures check(s) failed)"
exit 1

#!/usr/bin/env bash
# check_gpu_check.sh SOURCE_DIR BIN_DIR FAKE_NVML FAKE_CUDA: runs bench/gpu_check.sh end to end
# in its fake mode: the fake NVML and the fake CUDA driver the tests build, and a fake
# nvidia-smi written here that lists the live processes of the file where the fakes register
# GPU memory (as the job tests' fake machine does). Then asserts on its summary and its folder.
# A second run, with a fake NVML whose GPU has no energy counter, must fail and say why.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
src=$1
bin=$2
fake_nvml=$(realpath "$3")
fake_cuda=$(realpath "$4")
need timeout coreutils

root=$(mktemp -d)
cleanup() {
    # Nothing the check started may outlive it; end what is left of ours, by pid.
    local p
    for p in $(awk '{print $2}' "$root/fake/procs.txt" 2>/dev/null | sort -u); do
        grep -q joulebench-gpu-load "/proc/$p/cmdline" 2>/dev/null && kill -KILL "$p" 2>/dev/null
    done
    rm -rf "$root"
}
trap cleanup EXIT
fake=$root/fake
mkdir -p "$fake"
ln -s "$fake_nvml" "$fake/libnvidia-ml.so.1"
ln -s "$fake_cuda" "$fake/libcuda.so.1"
: >"$fake/procs.txt"
echo "0, GPU-00000000-fake-zero, Fake H200, 143771" >"$fake/gpus.csv"
cat >"$fake/nvidia-smi" <<EOF
#!/bin/sh
# fake nvidia-smi written by check_gpu_check.sh: one GPU, and the live pids of procs.txt
case "\$1" in
  --query-gpu=index,uuid,name,memory.total) cat '$fake/gpus.csv'; exit 0;;
  --query-compute-apps=pid,gpu_uuid,used_memory|--query-compute-apps=pid,used_memory)
    # A pid's memory is its latest line (what it holds now).
    awk '{ m[\$2] = \$3 } END { for (p in m) print p, m[p] }' '$fake/procs.txt' | while read pid bytes; do
      state=\$(sed 's/.*) \\(.\\).*/\\1/' /proc/\$pid/stat 2>/dev/null)
      if [ -n "\$state" ] && [ "\$state" != Z ]; then
        if [ "\$1" = --query-compute-apps=pid,used_memory ]; then
          echo "\$pid, \$((bytes / 1048576))"
        else
          echo "\$pid, GPU-00000000-fake-zero, \$((bytes / 1048576))"
        fi
      fi
    done
    exit 0;;
esac
echo "fake nvidia-smi: unexpected arguments \$*" >&2
exit 2
EOF
chmod 755 "$fake/nvidia-smi"
write_nvml() {  # the fake NVML's script: GPU 0 idles at 70 W, draws 310 W while the fake CUDA computes
    printf 'gpu 0 GPU-00000000-fake-zero 143771 Fake H200\nidle_mw 0 70000\nbusy_mw 0 310000\nprocs %s\nbusy_file 0 %s\n%s' \
        "$fake/procs.txt" "$fake/busy" "${1:-}" >"$fake/nvml.txt"
}
write_nvml
# Each launch of the fake CUDA takes 0.1 s.
export JB_FAKE_NVML=$fake/nvml.txt JB_FAKE_GPU_PROCS=$fake/procs.txt
export JB_FAKE_CUDA_LAUNCH_US=100000 JB_FAKE_CUDA_BUSY_FILE=$fake/busy

out=$root/check
rc=0
timeout 240 bash "$src/bench/gpu_check.sh" --bin "$bin" --fake "$fake" "$out" >"$root/check.log" 2>&1 || rc=$?
s=$out/summary.txt
[ -s "$s" ] || fail "gpu_check.sh wrote no summary (exit $rc): $(cat "$root/check.log")"
[ "$rc" -eq 0 ] || fail "gpu_check.sh in fake mode exited $rc: $(cat "$s")"
expect() {  # expect REGEX WHAT: a summary line
    grep -qE "$1" "$s" || fail "the summary has no line for $2 (/$1/): $(cat "$s")"
}
expect 'FAKE mode' 'the fake mode'
expect '^nvidia-smi: 0, GPU-00000000-fake-zero, Fake H200' 'the GPU as nvidia-smi lists it'
expect '^  ok    nvml:0 readable' 'the energy counter'
expect '^  ok    nvml-power:0 readable' 'the power integration counter'
expect '^  ok    measure completed' 'the measure'
# 4 launches of 0.1 s a pass, 2 passes a round, 240 W over idle: about 24 J per launch.
jpd='median (2[0-9]|3[0-5])(\.[0-9]+)?, mean [0-9.e+]+, sd [0-9.e+-]+ \([0-9.]+%\) over 2 rounds; verdicts: [a-z-]+ [a-z-]+$'
expect "^  nvml:0 +marginal J per decode: $jpd" 'nvml:0 J per decode'
expect "^  nvml-power:0 +marginal J per decode: $jpd" 'nvml-power:0 J per decode'
# characterize brings each counter's profile back (issue 31).
expect '^  ok    nvml:0 characterized \(profile_nvml.json\): a new value every' 'the energy counter profile'
expect '^  ok    nvml-power:0 characterized \(profile_nvml-power.json\)' 'the power counter profile'
grep -q '"kind": "nvml-power-instant"' "$out/profile_nvml-power.json" ||
    fail "profile_nvml-power.json does not name the instant reading: $(cat "$out/profile_nvml-power.json")"
expect '^  marginal energy, nvml-power:0 / nvml:0: [01]\.[0-9]{3} \(all rounds\)$' 'the counters compared on marginal energy'
expect '^  nvml:0 +busy power 3[01][0-9]\.[0-9] W' "nvml:0's busy power (the fake's 310 W)"
expect '^  nvml-power:0 +busy power 3[01][0-9]\.[0-9] W' "nvml-power:0's busy power"
expect '^  nvml:0 .*the counter advanced in [0-9]+ of [0-9]+ intervals \(a new value every [0-9]+ ms\)$' "nvml:0's cadence"
expect '^  nvml:0 +update cadence [0-9.]+ ms \(the record.s sampler figure\); over [0-9]+ raw intervals the least energy in one is [0-9.]+ mJ and every one is a multiple of [0-9.]+ mJ \(the finest step seen\)$' "nvml:0's cadence and resolution"
expect '^  busy power, nvml-power:0 / nvml:0: (0\.9[5-9][0-9]|1\.0[0-4][0-9])$' 'busy power agreement'
expect '^  ok    the two counters agree on busy power' 'the agreement check'
expect '^  hold: status completed, peak GPU memory 65 MiB' 'the hold job (64 MiB held + 1 MiB buffer)'
expect '^  ok    hold: the manifest.s peak 65 MiB covers the 64 MiB held' 'the hold check'
expect '^  ok    hold: nvidia-smi showed at most 65 MiB for pid [0-9]+; the manifest says 65 MiB' 'the nvidia-smi comparison'
expect '^  timeout: status timeout' 'the timeout job'
expect '^  deaf_daemon: status timeout' 'the daemon job'
expect '^  ok    deaf_daemon: SIGKILL was needed and sent' 'the SIGKILL'
expect '^  ok    deaf_daemon: its daemon [0-9]+ is gone' 'the daemon gone'
expect '^  ok    deaf_daemon: nvidia-smi saw the daemon hold 33 MiB' 'the daemon memory in nvidia-smi'
expect '^  ok    after the queue nvidia-smi shows none of the jobs. processes \([0-9]+ [0-9]+ [0-9]+ \)' 'nothing left on the GPU'
expect '^RESULT: PASS' 'the result'
! grep -q 'FAIL' "$s" || fail "a check failed: $(cat "$s")"
for f in counters.txt measure.json measure.stderr measure_summary.txt jobs.json jobs_run.txt nvidia_smi_apps.txt; do
    [ -s "$out/$f" ] || fail "the check's folder has no $f"
done
[ -e "$out/nvidia_smi_after.txt" ] || fail "the check's folder has no nvidia_smi_after.txt"
[ "$(ls "$out"/jobs/*/driver_*/manifest.json | wc -l)" -eq 3 ] || fail "expected three manifests under jobs/"
[ "$(grep -c '"decodes": 8,' "$out/measure.json")" -eq 2 ] || fail "measure.json has not two rounds of 8 decodes"
cat "$s"
echo "ok: gpu_check.sh in fake mode: $(grep -c '^  ok ' "$s") checks passed"

# A GPU without an energy counter: the check fails, and says which check and why.
write_nvml 'no_energy 0
'
: >"$fake/procs.txt"
rm -f "$fake/busy"
rc=0
timeout 240 bash "$src/bench/gpu_check.sh" --bin "$bin" --fake "$fake" "$root/check2" >"$root/check2.log" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "gpu_check.sh without an energy counter exited $rc, expected 1: $(cat "$root/check2.log")"
grep -qE '^  FAIL  nvml:0 not readable' "$root/check2/summary.txt" || fail "no FAIL line for nvml:0: $(cat "$root/check2/summary.txt")"
grep -qE '^RESULT: FAIL' "$root/check2/summary.txt" || fail "no RESULT: FAIL: $(cat "$root/check2/summary.txt")"
# Bad usage: a folder that is not empty.
rc=0
bash "$src/bench/gpu_check.sh" --bin "$bin" --fake "$fake" "$out" >"$root/check3.log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q 'is not empty' "$root/check3.log" || fail "a used folder was not refused (exit $rc): $(cat "$root/check3.log")"
echo "ok: gpu_check.sh fails without an energy counter and refuses a used folder"

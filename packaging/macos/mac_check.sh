#!/usr/bin/env bash
# mac_check.sh [--bin DIR] [--out FILE] [-- JOULEBENCH-CLI FLAGS...]: the Mac check
# (docs/MACOS.md). Lists the counters this Mac can read, then runs a short measurement of the
# bundled demo decoder on the simulated counter, the GPU rail (ioreport-gpu), the whole CPU
# (ioreport:cpu: `CPU Energy`, or the dies' `DIE_<n>_CPU Energy` added up on an Ultra) and the
# child's own rusage energy (task), and prints what a bug report needs: the machine, the record's
# counter_info (channels read, how each published) and its warnings.
# --bin: where joulebench-cli and joulebench-demo-decoder are (default build/bin); --out: the
# record (default mac-check.json). Flags after `--` go to both joulebench-cli commands (the
# tests point --corefoundation-library, --ioreport-library, ... at the fake Apple libraries).
set -euo pipefail
bin=build/bin
out=mac-check.json
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
    --bin) bin=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "mac_check.sh: unknown argument '$1' (usage: mac_check.sh [--bin DIR] [--out FILE] [-- FLAGS...])" >&2
       exit 2 ;;
    esac
done
cli=$bin/joulebench-cli
decoder=$bin/joulebench-demo-decoder
for p in "$cli" "$decoder"; do
    [ -x "$p" ] || { echo "mac_check.sh: $p is not an executable; build first (./dev build) or give --bin" >&2; exit 2; }
done

echo "== machine"
if command -v sw_vers >/dev/null 2>&1; then sw_vers; else uname -sr; fi
if command -v sysctl >/dev/null 2>&1; then sysctl -n machdep.cpu.brand_string 2>/dev/null || true; fi

echo "== counters"
"$cli" counters "${extra[@]}"

echo "== measure (2 rounds; the record goes to $out)"
rc=0
"$cli" measure --label mac-check --rounds 2 --k 1 --idle-s 2 \
    --counter sim --counter ioreport-gpu --counter ioreport:cpu --counter task "${extra[@]}" \
    -- "$decoder" serve --jobs 2 >"$out" || rc=$?

echo "== the record's counter_info and warnings"
if [ -s "$out" ]; then
    # The record is Python's json.dump layout: print the counter_info and warnings blocks whole.
    awk '/^ *"(counter_info|warnings)": /{on=1; depth=0}
         on {print; n=gsub(/[\[{]/,"&"); m=gsub(/[\]}]/,"&"); depth+=n-m; if (depth<=0) on=0}' "$out"
    tail -c 2000 "$out"
    echo
else
    echo "(no record was written)"
fi
echo "== measure exit status: $rc"
exit "$rc"

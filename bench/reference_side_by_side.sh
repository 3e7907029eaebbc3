#!/usr/bin/env bash
# The reference harness and joulebench-cli measure on the same fake `intel-rapl:0`, one after
# the other, with the same child and flags: the marginal energy per round of each against the
# energy the fake zone injected (the child's truth_nj notes) and against each other.
#
#   sudo bench/reference_side_by_side.sh BUILD_DIR PATH/TO/wai_det_energy.py [ROUNDS]
#
# The reference reads the fixed path /sys/class/powercap/intel-rapl:0, so this runs in a
# private mount namespace (unshare -m, root) with a temporary folder bound over
# /sys/class/powercap (a tmpfs over /sys/class first where powercap is absent); nothing outside the namespace sees it. Not a test: the reference is not
# part of the repository. docs/COUNTERS.md records its result.
set -euo pipefail
build=$(cd "$1" && pwd); ref=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); rounds=${3:-7}
if [ "${JB_IN_NS:-}" != 1 ]; then
    exec unshare -m env JB_IN_NS=1 "$0" "$@"
fi
zone=
tmp=$(mktemp -d); trap '[ -z "$zone" ] || kill $zone 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/powercap/intel-rapl:0"
# A machine without powercap (a VM) has no mount point: a tmpfs over /sys/class gives one,
# inside this namespace only.
[ -d /sys/class/powercap ] || mount -t tmpfs joulebench-side-by-side /sys/class
mkdir -p /sys/class/powercap
mount --bind "$tmp/powercap" /sys/class/powercap
flag=$tmp/busy.flag
"$build/tests/fakezone" /sys/class/powercap/intel-rapl:0 --name package-0 --idle-w 20 --busy-w 15 \
    --flag "$flag" --tick-ms 1 --seconds 600 & zone=$!
for _ in $(seq 100); do [ -e /sys/class/powercap/intel-rapl:0/energy_uj ] && break; sleep 0.05; done
child=("$build/tests/fakechild" serve --jobs 2 --job-ms 500 --flag "$flag" --busy-w 15)
args=(--label side-by-side --rounds "$rounds" --k 1 --idle-s 2 --counter rapl)
python3 "$ref" "${args[@]}" -- "${child[@]}" >"$tmp/ref.json"
"$build/bin/joulebench-cli" measure "${args[@]}" -- "${child[@]}" >"$tmp/jb.json"
python3 - "$tmp/ref.json" "$tmp/jb.json" <<'PY'
import json, sys
def per_round(path):
    r = json.load(open(path))
    out = []
    for rd in r["rounds"]:
        truth = float(rd["child_note"].split("=")[1])
        out.append((rd["rapl"]["marginal_nj"], truth))
    return out
ref, jb = per_round(sys.argv[1]), per_round(sys.argv[2])
def summary(name, rows):
    m = sum(a for a, _ in rows); t = sum(b for _, b in rows)
    print(f"{name:10s} rounds {len(rows)}  marginal {m/1e9:.4f} J  injected {t/1e9:.4f} J  error {100*(m-t)/t:+.3f} %")
    return m / t
a = summary("reference", ref); b = summary("joulebench", jb)
print(f"joulebench / reference, marginal energy: {100*(sum(x for x, _ in jb)/sum(x for x, _ in ref)-1):+.3f} %")
print(f"joulebench / reference, each against its own injected energy: {100*(b/a-1):+.3f} %")
PY

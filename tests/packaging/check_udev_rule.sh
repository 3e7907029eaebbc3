#!/usr/bin/env bash
# check_udev_rule.sh PACKAGING_LINUX_DIR GROUP: the powercap rule opens energy_uj to GROUP only
# (never to everyone: CVE-2020-8694), and the postinst creates that group and reloads udev
# when it can, without failing where udev is absent (containers, chroots).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
dir=$1
group=$2
rule=$dir/60-joulebench-powercap.rules
[ -f "$rule" ] || fail "$rule is missing"

lines=$(grep -v '^[[:space:]]*#' "$rule" | grep -v '^[[:space:]]*$' || true)
[ -n "$lines" ] || fail "$rule has no rule"
while IFS= read -r line; do
    case "$line" in
    *'SUBSYSTEM=="powercap"'*)
        case "$line" in *energy_uj*) ;; *) fail "$rule: a rule that does not name energy_uj: $line" ;; esac
        grep -q "chgrp $group /sys%p/energy_uj" <<<"$line" || fail "$rule: energy_uj is not given to the group $group: $line" ;;
    *'SUBSYSTEM=="hwmon"'*)
        case "$line" in *'energy*_input'*) ;; *) fail "$rule: a hwmon rule that does not name energy*_input: $line" ;; esac
        grep -q "chgrp $group " <<<"$line" || fail "$rule: hwmon energy files are not given to the group $group: $line" ;;
    *) fail "$rule: a rule without SUBSYSTEM==\"powercap\" or \"hwmon\": $line" ;;
    esac
    case "$line" in *MODE=* | *OWNER=* | *GROUP=*) fail "$rule: MODE/OWNER/GROUP act on /dev nodes, not sysfs: $line" ;; esac
    # Every program udev runs is given by absolute path (udev has no PATH).
    for prog in $(printf '%s\n' "$line" | grep -o 'RUN+="[^" ]*' | sed 's/RUN+="//'); do
        case "$prog" in /*) ;; *) fail "$rule: RUN program '$prog' is not an absolute path" ;; esac
    done
    modes=$(printf '%s\n' "$line" | grep -o 'chmod [^ "]*' | sed 's/chmod //')
    [ -n "$modes" ] || fail "$rule: no chmod of energy_uj: $line"
    for m in $modes; do
        case "$m" in
        [0-7][0-7][0-7] | [0-7][0-7][0-7][0-7]) ;;
        *) fail "$rule: chmod $m: use an octal mode, so the bits for others are explicit" ;;
        esac
        others=${m: -1}
        [ "$others" = 0 ] || fail "$rule: chmod $m gives others access to energy_uj (CVE-2020-8694)"
        group_bits=${m: -2:1}
        [ $((group_bits & 4)) -ne 0 ] || fail "$rule: chmod $m does not let the group read energy_uj"
        [ $((group_bits & 2)) -eq 0 ] || fail "$rule: chmod $m lets the group write energy_uj (resets the counter)"
    done
done <<<"$lines"

# The postinst, run with fake tools that log their calls.
postinst=$dir/postinst
[ -x "$postinst" ] || fail "$postinst is missing or not executable"
sh -n "$postinst" || fail "$postinst: syntax error"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/bin-no-udev"
for t in getent addgroup udevadm; do
    cat >"$tmp/bin/$t" <<FAKE
#!/bin/sh
echo "$t \$*" >>"$tmp/calls"
if [ "$t" = getent ] && [ -f "$tmp/group-exists" ]; then echo "$group:x:999:"; exit 0; fi
[ "$t" = getent ] && exit 2
exit 0
FAKE
    chmod +x "$tmp/bin/$t"
done
cp "$tmp/bin/getent" "$tmp/bin/addgroup" "$tmp/bin-no-udev/"

run_postinst() {  # PATH_DIR: runs postinst configure with only the fakes (and sh) on PATH
    : >"$tmp/calls"
    PATH="$1" /bin/sh "$postinst" configure >"$tmp/out" 2>&1 || fail "postinst configure failed: $(cat "$tmp/out")"
}

run_postinst "$tmp/bin"
grep -qx "addgroup --quiet --system $group" "$tmp/calls" ||
    fail "postinst did not create the system group $group; calls: $(cat "$tmp/calls")"
grep -qx "udevadm control --reload-rules" "$tmp/calls" || fail "postinst did not reload the udev rules"
grep -q "^udevadm trigger.*--subsystem-match=powercap" "$tmp/calls" ||
    fail "postinst did not apply the rule to the present powercap zones"
grep -q "^udevadm trigger.*--subsystem-match=hwmon" "$tmp/calls" ||
    fail "postinst did not apply the rule to the present hwmon chips (their energy*_input files)"

touch "$tmp/group-exists"
run_postinst "$tmp/bin"
if grep -q "^addgroup" "$tmp/calls"; then fail "postinst adds the group $group again although it exists"; fi

rm "$tmp/group-exists"
run_postinst "$tmp/bin-no-udev"
grep -qx "addgroup --quiet --system $group" "$tmp/calls" || fail "postinst without udevadm did not create the group"

echo "ok: energy_uj goes to group $group (mode ${modes:-?}); the postinst creates the group and reloads udev"

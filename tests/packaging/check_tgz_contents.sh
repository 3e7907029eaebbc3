#!/usr/bin/env bash
# check_tgz_contents.sh PACKAGE_DIR HAS_GUI: the .tar.gz holds the programs under one top folder.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
out=$1
has_gui=$2
tgz=$(the_one "$out"/*.tar.gz)
files=$(tar -tzf "$tgz")
top=$(printf '%s\n' "$files" | head -n1 | cut -d/ -f1)
[ -n "$top" ] || fail "$tgz is empty"
expect=("$top/bin/joulebench-cli" "$top/bin/joulebench-demo-decoder" "$top/bin/joulebench-exec"
    "$top/include/joulebench/child.hpp" "$top/share/joulebench/python/joulebench_child.py")
[ "$has_gui" = 1 ] && expect+=("$top/bin/joulebench")
for f in "${expect[@]}"; do
    grep -qx -- "$f" <<<"$files" || fail "$tgz does not contain $f"
done
others=$(printf '%s\n' "$files" | grep -v "^$top/" || true)
[ -z "$others" ] || fail "$tgz has files outside its top folder $top/: $others"
echo "ok: $tgz"

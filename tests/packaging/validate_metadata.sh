#!/usr/bin/env bash
# validate_metadata.sh desktop|metainfo FILE: the desktop file and the AppStream metainfo pass
# their validators with nothing to say (hints and warnings fail too).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
kind=$1
file=$2
[ -f "$file" ] || fail "$file does not exist"
case "$kind" in
desktop)
    need desktop-file-validate desktop-file-utils
    out=$(desktop-file-validate "$file" 2>&1) || fail "desktop-file-validate rejects $file:"$'\n'"$out"
    [ -z "$out" ] || fail "desktop-file-validate has remarks on $file:"$'\n'"$out"
    ;;
metainfo)
    need appstreamcli appstream
    # --strict: warnings and infos fail too (pedantic remarks, such as the upper-case
    # letters of the reverse-DNS id, do not); --no-net: CI has no network.
    out=$(appstreamcli validate --no-net --strict --explain "$file" 2>&1) ||
        fail "appstreamcli validate rejects $file:"$'\n'"$out"
    ;;
*) fail "unknown kind '$kind' (desktop or metainfo)" ;;
esac
echo "ok: $file"

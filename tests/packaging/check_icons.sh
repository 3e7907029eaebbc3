#!/usr/bin/env bash
# check_icons.sh ICON_BUILD_DIR APP_ID SIZE...: the build rendered DIR/NxN/APP_ID.png for every
# size, each a PNG of exactly N x N pixels with something drawn in it.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
dir=$1
id=$2
shift 2
[ $# -gt 0 ] || fail "no icon sizes given"
for n in "$@"; do
    png=$dir/${n}x${n}/$id.png
    [ -f "$png" ] || fail "$png was not generated (target jb_icons)"
    # PNG signature, then the IHDR chunk: width and height as 4-byte big-endian at offsets 16, 20.
    sig=$(od -An -tx1 -N8 "$png" | tr -d ' \n')
    [ "$sig" = 89504e470d0a1a0a ] || fail "$png is not a PNG file"
    w=$(od -An -tu1 -j16 -N4 "$png" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}')
    h=$(od -An -tu1 -j20 -N4 "$png" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}')
    [ "$w" = "$n" ] && [ "$h" = "$n" ] || fail "$png is ${w}x${h}, expected ${n}x${n}"
    # A blank (fully transparent) square compresses to a few hundred bytes at any of these
    # sizes; the drawing takes several times more.
    bytes=$(wc -c <"$png")
    min=$((n * n / 40 > 400 ? n * n / 40 : 400))
    [ "$bytes" -gt "$min" ] || fail "$png has only $bytes bytes: is the icon blank?"
done
echo "ok: $# sizes of $id.png in $dir"

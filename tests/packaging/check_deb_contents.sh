#!/usr/bin/env bash
# check_deb_contents.sh PACKAGE_DIR APP_ID HAS_GUI: the .deb declares its Debian dependencies and
# maintainer scripts and holds every file a user needs, under /usr, and nothing of the build.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
out=$1
id=$2
has_gui=$3
need dpkg-deb dpkg
deb=$(the_one "$out"/*.deb)

[ "$(dpkg-deb -f "$deb" Package)" = joulebench ] || fail "$deb: the package is not named joulebench"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
expect_deps=(libc6 libqt6core6 adduser)
[ "$has_gui" = 1 ] && expect_deps+=(libqt6gui6 libqt6widgets6 libqt6charts6 libqt6svg6 qt6-qpa-plugins)
for d in "${expect_deps[@]}"; do
    printf '%s\n' "$depends" | tr ',' '\n' | grep -q "^ *$d\b" || fail "$deb: Depends does not name $d"
done

files=$(dpkg-deb -c "$deb" | awk '{print $6}')
expect=(./usr/bin/joulebench-cli ./usr/bin/joulebench-demo-decoder ./usr/bin/joulebench-gpu-load ./usr/bin/joulebench-exec
    ./usr/lib/udev/rules.d/60-joulebench-powercap.rules ./usr/share/doc/joulebench/copyright
    ./usr/include/joulebench/child.hpp ./usr/share/joulebench/python/joulebench_child.py)
if [ "$has_gui" = 1 ]; then
    expect+=(./usr/bin/joulebench
        "./usr/share/applications/$id.desktop"
        "./usr/share/metainfo/$id.metainfo.xml"
        "./usr/share/icons/hicolor/scalable/apps/$id.svg")
    for n in 16 32 48 64 128 256 512; do expect+=("./usr/share/icons/hicolor/${n}x${n}/apps/$id.png"); done
fi
for f in "${expect[@]}"; do
    grep -qx -- "$f" <<<"$files" || fail "$deb does not contain $f"
done
outside=$(printf '%s\n' "$files" | grep -v '^\./$' | grep -v '^\./usr/' || true)
[ -z "$outside" ] || fail "$deb installs outside /usr: $outside"
# The one header shipped is the child helper users include (include/joulebench/child.hpp).
leaked=$(printf '%s\n' "$files" | grep -v -x './usr/include/joulebench/child.hpp' | grep -v -x './usr/include/joulebench/' |
    grep -v -x './usr/include/' | grep -E '\.a$|/include/|/tst_|jb_svg2png|/lib/cmake/' || true)
[ -z "$leaked" ] || fail "$deb ships build or test files: $leaked"

# Maintainer scripts: present and executable (dpkg runs them).
ctrl=$(dpkg-deb --ctrl-tarfile "$deb" | tar -tvf -)
for s in postinst postrm; do
    grep -qE "^-rwxr-xr-x .* \./$s$" <<<"$ctrl" || fail "$deb: control member $s missing or not 0755"
done
echo "ok: $deb"

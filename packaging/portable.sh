#!/usr/bin/env bash
# portable.sh BUILD_DIR OUT_DIR: a folder and a tarball that run joulebench-cli, the demo decoder
# and the GPU workload on another x86-64 Linux with an equal or newer glibc and no Qt:
#
#   OUT_DIR/joulebench-VERSION-linux-ARCH/
#       joulebench-cli, joulebench-demo-decoder, joulebench-gpu-load, joulebench-exec   wrappers: set the library
#                                                                      path, then run libexec/'s
#       gpu_check.sh          the prepared GPU check (bench/gpu_check.sh)
#       libexec/              the programs (stripped) and a qt.conf pointing Qt at plugins/
#       lib/                  every shared library ldd lists for them, but glibc's own
#       plugins/imageformats/ the JPEG plugin the demo decoder's --format jpeg needs
#       plugins/sqldrivers/   Qt Sql's SQLite driver: measure --out adds records to the library
#       include/joulebench/child.hpp, python/joulebench_child.py   the child helpers
#   OUT_DIR/joulebench-VERSION-linux-ARCH.tar.gz
#
# Prints the folder's and the tarball's size; fails when the tarball, what travels to the other
# machine, is over 60 MiB (JB_PORTABLE_LIMIT_MIB). The folder is larger (ICU's data alone is
# 30 MiB), and the tarball less than half of it.
set -euo pipefail

die() {
    printf 'portable.sh: %s\n' "$*" >&2
    exit 1
}
[ $# -eq 2 ] || { echo "usage: portable.sh BUILD_DIR OUT_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd) || die "no build folder $1"
mkdir -p "$2"
out=$(cd "$2" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(dirname "$here")
limit_mib=${JB_PORTABLE_LIMIT_MIB:-60}

programs=(joulebench-cli joulebench-demo-decoder joulebench-gpu-load joulebench-exec)
for p in "${programs[@]}"; do
    [ -x "$build/bin/$p" ] || die "$build/bin/$p is missing: build it first (cmake --build $build --target ${programs[*]})"
done
command -v ldd >/dev/null || die "ldd is missing (Debian package libc-bin)"

version=$("$build/bin/joulebench-cli" --version | awk '{print $2}')
[ -n "$version" ] || die "joulebench-cli --version printed no version"
name=joulebench-$version-linux-$(uname -m)
dir=$out/$name
rm -rf "$dir" "$dir.tar.gz"
mkdir -p "$dir/libexec" "$dir/lib" "$dir/plugins"

# glibc's own libraries come from the machine that runs the bundle: mixing them breaks.
is_glibc() {
    case "$1" in
    linux-vdso.so.* | ld-linux*.so.* | libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | \
        libresolv.so.* | libutil.so.* | libanl.so.* | libnsl.so.* | libmvec.so.*) return 0 ;;
    esac
    return 1
}

# copy_deps FILE: every library ldd resolves for FILE into lib/ (the real file, under its soname).
copy_deps() {
    local line soname path
    while read -r line; do
        soname=$(awk '{print $1}' <<<"$line")
        path=$(awk '$2 == "=>" {print $3}' <<<"$line")
        [ -n "$soname" ] || continue
        is_glibc "$(basename "$soname")" && continue
        if [ "$(awk '{print $2}' <<<"$line")" = "=>" ] && [ "$(awk '{print $3}' <<<"$line")" = "not" ]; then
            die "$(basename "$1") needs $soname, which ldd cannot find on this machine"
        fi
        [ -n "$path" ] || continue
        [ -e "$dir/lib/$soname" ] || cp -L "$path" "$dir/lib/$soname"
    done < <(ldd "$1")
}

for p in "${programs[@]}"; do
    cp "$build/bin/$p" "$dir/libexec/$p"
    copy_deps "$build/bin/$p"
done

# Qt looks for plugins beside the program through qt.conf (no environment variable needed).
qt_plugins=$(sed -n 's/^QT6_INSTALL_PLUGINS:\(.*\)$/\1/p' < <(qtpaths6 --query 2>/dev/null || true))
if [ -z "$qt_plugins" ]; then
    core=$(ldd "$build/bin/joulebench-demo-decoder" | awk '$1 ~ /^libQt6Core/ {print $3}')
    qt_plugins=$(dirname "$core")/qt6/plugins
fi
if [ -e "$qt_plugins/imageformats/libqjpeg.so" ]; then
    mkdir -p "$dir/plugins/imageformats"
    cp -L "$qt_plugins/imageformats/libqjpeg.so" "$dir/plugins/imageformats/"
    copy_deps "$qt_plugins/imageformats/libqjpeg.so"
fi
if [ -e "$qt_plugins/sqldrivers/libqsqlite.so" ]; then
    mkdir -p "$dir/plugins/sqldrivers"
    cp -L "$qt_plugins/sqldrivers/libqsqlite.so" "$dir/plugins/sqldrivers/"
    copy_deps "$qt_plugins/sqldrivers/libqsqlite.so"
fi
printf '[Paths]\nPrefix=..\nPlugins=plugins\n' >"$dir/libexec/qt.conf"

# Smaller without the debugging information (a RelWithDebInfo build carries a lot).
if command -v strip >/dev/null; then
    strip --strip-unneeded "$dir"/libexec/joulebench-* "$dir"/lib/*.so* 2>/dev/null || true
    find "$dir/plugins" -name '*.so' -exec strip --strip-unneeded {} + 2>/dev/null || true
fi

for p in "${programs[@]}"; do
    cat >"$dir/$p" <<EOF
#!/bin/sh
# $p from the portable bundle: the bundle's libraries first, then the program.
here=\$(cd "\$(dirname "\$0")" && pwd)
LD_LIBRARY_PATH="\$here/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
exec "\$here/libexec/$p" "\$@"
EOF
    chmod 755 "$dir/$p"
done
cp "$src/bench/gpu_check.sh" "$dir/gpu_check.sh"
# The child helpers: a protocol child with phases in C++ (one header) or Python (one module).
mkdir -p "$dir/include/joulebench" "$dir/python"
cp "$src/include/joulebench/child.hpp" "$dir/include/joulebench/child.hpp"
cp "$src/python/joulebench_child.py" "$dir/python/joulebench_child.py"
chmod 755 "$dir/gpu_check.sh"
cat >"$dir/README.txt" <<EOF
JouleBench $version, portable command-line bundle for $(uname -m) Linux (glibc $(ldd --version | head -n1 | awk '{print $NF}') or newer).
  ./joulebench-cli counters
  ./joulebench-cli measure --counter sim -- ./joulebench-demo-decoder serve
  ./gpu_check.sh OUT_DIR        the GPU check (docs/GPU.md)
  ./joulebench-cli measure --counter sim --exec -- sh -c 'sleep 0.1'    any command (the shim: joulebench-exec)
  include/joulebench/child.hpp, python/joulebench_child.py   a protocol child with phases, in C++ or Python
The wrappers put lib/ first on LD_LIBRARY_PATH, and the programs they start inherit it: a job of
the GPU queue that needs the machine's own libraries can drop it with "env": {"LD_LIBRARY_PATH": null}.
EOF

tar -C "$out" -czf "$dir.tar.gz" "$name"
dir_bytes=$(du -sb "$dir" | awk '{print $1}')
tar_bytes=$(stat -c %s "$dir.tar.gz")
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
echo "bundle: $dir ($(mib "$dir_bytes") MiB, $(ls "$dir/lib" | wc -l) libraries)"
echo "tarball: $dir.tar.gz ($(mib "$tar_bytes") MiB)"
if [ "$tar_bytes" -gt $((limit_mib * 1048576)) ]; then
    die "the tarball is $(mib "$tar_bytes") MiB, over the $limit_mib MiB limit"
fi

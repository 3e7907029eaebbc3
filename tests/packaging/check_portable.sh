#!/usr/bin/env bash
# check_portable.sh SOURCE_DIR BUILD_DIR: builds the portable bundle (packaging/portable.sh) into a
# scratch folder, unpacks its tarball somewhere else, and runs the bundled CLI from there with
# a minimal environment: --version, counters, and a short measure of the bundled demo decoder
# (PNG and JPEG, the latter through the bundled plugin), the GPU workload's no-driver path and
# the GPU check against no GPU at all. Qt must come from the bundle:
#   - always: the dynamic loader's own report (LD_DEBUG=libs) names the bundle's libQt6Core
#     and libQt6Gui, and no Qt library outside it;
#   - where this runs as root with unshare(1): the same runs again in a private mount namespace
#     where every libQt6* file of the system is covered by an empty file, so Qt cannot be found
#     in the system paths at all.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
src=$1
build=$2
need ldd libc-bin
need tar tar
need strip binutils

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
bash "$src/packaging/portable.sh" "$build" "$root/out" >"$root/portable.log" 2>&1 ||
    fail "portable.sh failed: $(cat "$root/portable.log")"
cat "$root/portable.log"
tarball=$(the_one "$root"/out/joulebench-*-linux-*.tar.gz)
grep -qE '^bundle: .* \([0-9.]+ MiB, [0-9]+ libraries\)$' "$root/portable.log" || fail "portable.sh did not print the bundle's size"
grep -qE '^tarball: .* \([0-9.]+ MiB\)$' "$root/portable.log" || fail "portable.sh did not print the tarball's size"

# A too small limit is refused (the size check is real).
if JB_PORTABLE_LIMIT_MIB=1 bash "$src/packaging/portable.sh" "$build" "$root/small" >"$root/small.log" 2>&1; then
    fail "portable.sh accepted a bundle over a 1 MiB limit"
fi
grep -q 'over the 1 MiB limit' "$root/small.log" || fail "the size refusal does not say so: $(cat "$root/small.log")"

# Unpacked elsewhere: nothing may point back into the build tree or the first folder.
mkdir "$root/elsewhere"
tar -C "$root/elsewhere" -xzf "$tarball"
rm -rf "$root/out"
b=$(the_one "$root"/elsewhere/joulebench-*)
for f in joulebench-cli joulebench-demo-decoder joulebench-gpu-load joulebench-exec libexec/joulebench-exec \
    include/joulebench/child.hpp python/joulebench_child.py gpu_check.sh libexec/qt.conf plugins/imageformats/libqjpeg.so \
    plugins/sqldrivers/libqsqlite.so; do
    [ -e "$b/$f" ] || fail "the bundle has no $f"
done
for l in "$b"/lib/*; do
    case "$(basename "$l")" in
    libc.so.* | ld-linux* | libm.so.* | libpthread.so.* | libdl.so.*) fail "the bundle carries glibc's $(basename "$l")" ;;
    esac
done
[ -e "$b/lib/libQt6Core.so.6" ] || fail "the bundle has no lib/libQt6Core.so.6"

mkdir "$root/cwd" "$root/home"
run() {  # run NAME CMD...: a minimal environment, an empty folder; keeps the output
    local name=$1
    shift
    local rc=0
    (cd "$root/cwd" && env -i PATH=/usr/bin:/bin HOME="$root/home" LANG=C.UTF-8 "$@") \
        >"$root/$name.out" 2>"$root/$name.err" || rc=$?
    return $rc
}
show() { printf -- '-- stdout:\n%s\n-- stderr:\n%s\n' "$(head -c 3000 "$root/$1.out")" "$(head -c 3000 "$root/$1.err")"; }

# The loader's report: which file each library came from.
run loader env LD_DEBUG=libs "$b/joulebench-demo-decoder" --help || fail "the bundled demo decoder does not start: $(show loader)"
for lib in libQt6Core.so.6 libQt6Gui.so.6; do
    grep -q "calling init: $b/lib/$lib\$" "$root/loader.err" ||
        fail "$lib was not loaded from the bundle: $(grep "calling init:.*$lib" "$root/loader.err" || echo 'not loaded')"
done
outside=$(grep 'calling init:.*libQt6' "$root/loader.err" | grep -v "calling init: $b/" || true)
[ -z "$outside" ] || fail "Qt libraries loaded from outside the bundle: $outside"

bundled_runs() {  # the CLI and the demo decoder from the bundle: version, counters, two measures
    run version "$b/joulebench-cli" --version || fail "bundled joulebench-cli --version failed: $(show version)"
    grep -qE '^joulebench-cli [0-9]' "$root/version.out" || fail "unexpected --version output: $(show version)"
    run counters "$b/joulebench-cli" counters || fail "bundled joulebench-cli counters failed: $(show counters)"
    grep -qE '^ *sim[[:space:]]+(yes|available)\b' "$root/counters.out" || fail "counters does not list sim as readable: $(show counters)"
    local format
    for format in png jpeg; do
        run "measure-$format" "$b/joulebench-cli" measure --label bundle --rounds 1 --k 1 --idle-s 0.3 --counter sim \
            -- "$b/joulebench-demo-decoder" serve --jobs 1 --size 64x64 --format "$format" ||
            fail "bundled measure of the demo decoder ($format) failed: $(show "measure-$format")"
        grep -q '"decodes": 1' "$root/measure-$format.out" || fail "the $format measure has no round of 1 decode: $(show "measure-$format")"
        grep -q 'bundle round 1/1: 1 decodes' "$root/measure-$format.err" || fail "no round line ($format): $(show "measure-$format")"
    done
    # --out adds the record to the library through the bundled SQLite driver.
    rm -f "$root/library.sqlite" "$root/out.json"
    run measure-out env JOULEBENCH_LIBRARY="$root/library.sqlite" "$b/joulebench-cli" measure --label bundle --rounds 1 \
        --k 1 --idle-s 0.3 --counter sim --out "$root/out.json" -- "$b/joulebench-demo-decoder" serve --jobs 1 --size 64x64 ||
        fail "bundled measure --out failed: $(show measure-out)"
    ! grep -q 'not added to the library' "$root/measure-out.err" || fail "the bundle cannot add to the library: $(show measure-out)"
    [ -s "$root/library.sqlite" ] || fail "measure --out wrote no library file: $(show measure-out)"
    # The GPU workload starts from the bundle and, with no driver to load, says so.
    local rc=0
    run gpuload "$b/joulebench-gpu-load" serve --cuda-library "$root/no-libcuda.so.1" || rc=$?
    [ "$rc" -eq 1 ] || fail "the bundled GPU workload without a driver exited $rc, expected 1: $(show gpuload)"
    grep -q 'cannot load the NVIDIA driver library' "$root/gpuload.err" || fail "no driver message: $(show gpuload)"
    # The GPU check runs from the bundle (its programs beside it); against an empty fake folder
    # (no NVML, no CUDA, no nvidia-smi) every GPU step fails and the summary says so.
    mkdir -p "$root/nofake"
    rm -rf "$root/gpucheck"
    rc=0
    run gpucheck "$b/gpu_check.sh" --fake "$root/nofake" "$root/gpucheck" || rc=$?
    [ "$rc" -eq 1 ] || fail "the bundled gpu_check.sh without a GPU exited $rc, expected 1: $(show gpucheck)"
    grep -q '^  FAIL  nvml:0 not readable: cannot load NVML library' "$root/gpucheck/summary.txt" ||
        fail "the bundled gpu_check.sh summary has no nvml:0 failure: $(cat "$root/gpucheck/summary.txt")"
    grep -q '^RESULT: FAIL' "$root/gpucheck/summary.txt" || fail "no RESULT: FAIL: $(cat "$root/gpucheck/summary.txt")"
}
bundled_runs
echo "ok: the bundle runs from $b with its own Qt (loader report)"

# Qt hidden from the system paths, where a private mount namespace can be had.
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null 2>&1 || ! unshare -m true 2>/dev/null; then
    echo "note: not root or no unshare -m here: the hidden-Qt run is left out, the loader report above stands"
    exit 0
fi
qtlibs=()
for d in /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64 /usr/lib64 /usr/lib /lib; do
    [ -d "$d" ] || continue
    for f in "$d"/libQt6*.so*; do
        [ -f "$f" ] && [ ! -L "$f" ] && qtlibs+=("$(realpath "$f")")
    done
done
mapfile -t qtlibs < <(printf '%s\n' "${qtlibs[@]}" | sort -u)
[ ${#qtlibs[@]} -gt 0 ] || fail "found no system libQt6* to hide (where does this build's Qt come from?)"
: >"$root/empty"
cat >"$root/hidden.sh" <<EOF
set -e
for f in ${qtlibs[*]}; do mount --bind "$root/empty" "\$f"; done
# Proof the system copy is gone: the demo decoder from the build tree no longer starts.
if "$build/bin/joulebench-demo-decoder" --help >/dev/null 2>&1; then echo "system Qt still loads" >&2; exit 3; fi
exec bash "$root/hidden-runs.sh"
EOF
{
    declare -f fail run show bundled_runs
    echo "root='$root'; b='$b'"
    echo "bundled_runs"
} >"$root/hidden-runs.sh"
unshare -m --propagation private bash "$root/hidden.sh" >"$root/hidden.log" 2>&1 ||
    fail "with the system's Qt hidden the bundle did not run: $(cat "$root/hidden.log")"
echo "ok: with ${#qtlibs[@]} system Qt libraries hidden the bundled CLI measures the bundled demo decoder"

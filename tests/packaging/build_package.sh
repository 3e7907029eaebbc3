#!/usr/bin/env bash
# build_package.sh CPACK BUILD_DIR OUT_DIR: CPack builds the .deb and the .tar.gz of this build
# tree into OUT_DIR (the fixture of the tests that inspect and run the package).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cpack=$1
build=$2
out=$3
need dpkg-deb dpkg
need dpkg-shlibdeps dpkg-dev
need file file  # CPack finds the ELF files for dpkg-shlibdeps with it
[ -f "$build/CPackConfig.cmake" ] || fail "$build/CPackConfig.cmake is missing: is packaging/ part of the build?"
rm -rf "$out"
mkdir -p "$out"
cd "$build"
# cpack first builds the 'all' target (its preinstall step): on 2 cores, no more than 2 jobs.
CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2} "$cpack" -G "DEB;TGZ" --config "$build/CPackConfig.cmake" -B "$out" ||
    fail "cpack could not build the packages"
the_one "$out"/*.deb >/dev/null
the_one "$out"/*.tar.gz >/dev/null
ls -l "$out"/*.deb "$out"/*.tar.gz

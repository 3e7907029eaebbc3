#!/usr/bin/env bash
# check_build_inputs.sh SOURCE_DIR BUILD_DIR [--expect-missing PKG]
#
# The guard of issue 11: every file from outside the repository that the build read, and every
# program the tests run, must come from a Debian package that ./dev installs, or from one that a
# package ./dev installs depends on (recommends do not count: ./dev installs without them).
#
# What the build read, taken from the build tree itself:
#   - the CMake files that configure loaded (the inputs of ninja's RERUN_CMAKE edge);
#   - the headers the compiler included (ninja's dependency log: ninja -t deps);
#   - the libraries linked (absolute paths and -lNAME in the link commands: ninja -t commands).
# What the tests run: every `need PROGRAM PACKAGE` in tests/**/*.sh and every
# `JB_NEED_TOOL("program", "package")` in tests/**/*.cpp.
#
# Each file is mapped to its package with dpkg -S; the packages ./dev installs (its
# DEBIAN_PACKAGES, what ./dev packages prints) are closed with apt-cache depends --recurse
# --no-recommends --no-suggests. A failure names the file, the package and the line to add.
#
# --expect-missing PKG: the guard's own test. Runs the check as if PKG were not in ./dev's list
# and succeeds only when the check fails and names PKG.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
without=""
if [ "${3:-}" = --expect-missing ]; then
    without=${4:?--expect-missing needs a package name}
    out=$(bash "${BASH_SOURCE[0]}" "$src" "$build" --without "$without" 2>&1) && rc=0 || rc=$?
    printf '%s\n' "$out"
    [ "$rc" -ne 0 ] || fail "the guard passed with $without removed from ./dev's list; it should have failed"
    grep -q "add '$without' to DEBIAN_PACKAGES" <<<"$out" ||
        fail "the guard failed with $without removed, but its message does not name $without"
    echo "ok: with $without removed from ./dev's list the guard fails and names it"
    exit 0
fi
[ "${3:-}" = --without ] && without=${4:?}

need dpkg-query dpkg
command -v apt-cache >/dev/null || fail "apt-cache is missing (Debian package apt)"
need ninja ninja-build
[ -f "$build/build.ninja" ] || fail "$build/build.ninja is missing: the guard reads a Ninja build tree (./dev builds with Ninja)"

# --- the packages ./dev installs, and their dependency closure ---------------------------------
# Read from ./dev's DEBIAN_PACKAGES=( ... ) itself (what ./dev packages prints), so the guard
# also judges a ./dev older than that command.
mapfile -t declared < <(bash -c 'eval "$(sed -n "/^DEBIAN_PACKAGES=(/,/)/p" "$1")"; printf "%s\n" "${DEBIAN_PACKAGES[@]}"' _ "$src/dev")
[ ${#declared[@]} -gt 0 ] || fail "found no DEBIAN_PACKAGES=( ... ) list in $src/dev"
if [ -n "$without" ]; then
    kept=()
    for p in "${declared[@]}"; do [ "$p" = "$without" ] || kept+=("$p"); done
    declared=("${kept[@]}")
fi
declare -A closure=()
while read -r p; do
    [ -n "$p" ] && closure[$p]=1
done < <(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances "${declared[@]}" 2>/dev/null | grep -v '^ ' | tr -d '<>' | sed 's/:.*//')
for p in "${declared[@]}"; do closure[$p]=1; done

# --- what the build read ----------------------------------------------------------------------
outside() {  # keep absolute paths outside the source and build trees
    grep '^/' | grep -v -e "^$src/" -e "^$build/" | sort -u
}
inputs=$(mktemp)
trap 'rm -f "$inputs" "$inputs".*' EXIT
# The CMake files configure loaded: the implicit inputs of the edge that reruns CMake.
awk '/^build build\.ninja: RERUN_CMAKE/ {print; exit}' "$build/build.ninja" | tr ' ' '\n' | outside >"$inputs.cmake"
# The headers: ninja's dependency log lists every file each object's compilation included.
ninja -C "$build" -t deps 2>/dev/null | sed -n 's/^    //p' | outside >"$inputs.headers"
# The libraries: absolute paths and -lNAME of the link commands, -lNAME resolved as the compiler would.
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
ninja -C "$build" -t commands 2>/dev/null | tr ' ' '\n' >"$inputs.words"
grep -E '^/[^ ]*\.(so|a)(\.[0-9]+)*$' "$inputs.words" | outside >"$inputs.libs" || true
for l in $(grep -E '^-l[A-Za-z0-9_+.-]+$' "$inputs.words" | sort -u | sed 's/^-l//'); do
    f=$("$cxx" -print-file-name="lib$l.so")
    [ "$f" = "lib$l.so" ] && f=$("$cxx" -print-file-name="lib$l.a")
    [ "${f#/}" != "$f" ] && realpath -s "$f"
done | outside >>"$inputs.libs"
sort -u "$inputs.cmake" "$inputs.headers" "$inputs.libs" >"$inputs"
count=$(wc -l <"$inputs")
[ "$count" -gt 0 ] || fail "found no build input outside the tree in $build: has the build run?"
[ -s "$inputs.cmake" ] || fail "found no CMake package file in $build/build.ninja"
[ -s "$inputs.headers" ] || fail "ninja's dependency log of $build lists no system header"

# --- which package owns each file ---------------------------------------------------------------
declare -A owner=()
own() {  # own FILE...: record the owners dpkg knows of
    local line pkgs path
    while IFS= read -r line; do
        pkgs=${line%%: /*}
        path=/${line#*: /}
        owner[$path]=$(tr -d ' ' <<<"$pkgs" | tr ',' '\n' | sed 's/:.*//' | tr '\n' ' ')
    done < <(dpkg-query -S "$@" 2>/dev/null | grep -v '^diversion by')
}
mapfile -t files <"$inputs"
for ((i = 0; i < ${#files[@]}; i += 500)); do own "${files[@]:i:500}"; done
# Not found as written: try the file a symbolic link leads to, and the other side of the
# merged /usr (a file dpkg knows as /lib/x is read as /usr/lib/x).
alias_of() {
    case "$1" in
    /usr/lib/* | /usr/bin/* | /usr/sbin/*) printf '%s\n' "${1#/usr}" ;;
    /lib/* | /lib64/* | /bin/* | /sbin/*) printf '/usr%s\n' "$1" ;;
    esac
}
for f in "${files[@]}"; do
    [ -n "${owner[$f]:-}" ] && continue
    for g in "$(realpath "$f" 2>/dev/null)" "$(alias_of "$f")" "$(alias_of "$(realpath "$f" 2>/dev/null)")"; do
        [ -n "$g" ] || continue
        own "$g"
        if [ -n "${owner[$g]:-}" ]; then owner[$f]=${owner[$g]}; break; fi
    done
done

essential() { [ "$(dpkg-query -W -f='${Essential}' "$1" 2>/dev/null)" = yes ]; }
covered() {  # covered "PKG PKG ...": one of the owners is installed by ./dev or essential
    local p
    for p in $1; do
        [ -n "${closure[$p]:-}" ] && return 0
        essential "$p" && return 0
    done
    return 1
}

problems=()
declare -A first_file=() files_of=()
for f in "${files[@]}"; do
    pkgs=${owner[$f]:-}
    if [ -z "$pkgs" ]; then
        problems+=("$f is read by the build but belongs to no Debian package (installed by hand?): the build must use only what ./dev installs")
        continue
    fi
    covered "$pkgs" && continue
    p=${pkgs%% *}
    [ -n "${first_file[$p]:-}" ] || first_file[$p]=$f
    files_of[$p]=$((${files_of[$p]:-0} + 1))
done
for p in "${!first_file[@]}"; do
    more=$((files_of[$p] - 1))
    extra=""
    [ "$more" -gt 0 ] && extra=" (and $more more of its files)"
    problems+=("${first_file[$p]}$extra is read by the build and comes from package $p, which ./dev does not install and nothing it installs depends on: add '$p' to DEBIAN_PACKAGES in ./dev")
done

# --- the programs the tests run ---------------------------------------------------------------
tools=$( (grep -rhoE '^\s*need [A-Za-z0-9._+-]+ [A-Za-z0-9._+-]+' "$src/tests" --include='*.sh' | awk '{print $2, $3}'
    grep -rhoE 'JB_NEED_TOOL\("[^"]+", *"[^"]+"\)' "$src/tests" --include='*.cpp' |
        sed -E 's/JB_NEED_TOOL\("([^"]+)", *"([^"]+)"\)/\1 \2/') | sort -u)
ntools=0
while read -r prog pkg; do
    [ -n "$prog" ] || continue
    ntools=$((ntools + 1))
    path=$(command -v "$prog" 2>/dev/null) || {
        problems+=("the tests run $prog, which is not installed: add '$pkg' to DEBIAN_PACKAGES in ./dev")
        continue
    }
    own "$path"
    pkgs=${owner[$path]:-}
    if [ -z "$pkgs" ]; then
        real=$(realpath "$path")
        for g in "$real" "$(alias_of "$path")" "$(alias_of "$real")"; do
            [ -n "$g" ] || continue
            own "$g"
            pkgs=${owner[$g]:-}
            [ -n "$pkgs" ] && break
        done
    fi
    if [ -z "$pkgs" ]; then
        problems+=("the tests run $prog ($path), which belongs to no Debian package: install it through ./dev (package $pkg)")
    elif ! covered "$pkgs"; then
        problems+=("the tests run $prog ($path), from package ${pkgs%% *}, which ./dev does not install: add '${pkgs%% *}' to DEBIAN_PACKAGES in ./dev")
    fi
done <<<"$tools"

if [ ${#problems[@]} -gt 0 ]; then
    printf 'FAIL: %s\n' "${problems[@]}" >&2
    exit 1
fi
echo "ok: $count build inputs ($(wc -l <"$inputs.cmake") CMake files, $(wc -l <"$inputs.headers") headers, $(wc -l <"$inputs.libs") libraries) and $ntools test tools all come from the ${#declared[@]} packages ./dev installs or their dependencies (${#closure[@]} packages)"

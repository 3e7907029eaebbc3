# Shared helpers of the packaging tests (sourced, not run).
# Exit codes: 0 pass, 1 fail, 77 skip (CTest SKIP_RETURN_CODE) for a tool this machine lacks.
fail() {
    printf 'FAIL: %s\n' "$*" >&2
    exit 1
}
skip() {
    printf 'SKIP: %s\n' "$*"
    exit 77
}
# need PROGRAM DEBIAN_PACKAGE: skip when a tool is missing (./dev deps installs it on Debian).
# Under ./dev test on Debian (JB_REQUIRE_TOOLS=1) a missing tool fails instead: there ./dev has
# installed every tool, so a skip would hide a gap. check_build_inputs.sh reads these lines to
# know which programs the tests run.
need() {
    command -v "$1" >/dev/null 2>&1 && return 0
    local why="$1 is not installed (Debian package $2; ./dev deps installs it)"
    [ "${JB_REQUIRE_TOOLS:-0}" = 1 ] && fail "$why"
    skip "$why"
}
# the_one GLOB...: prints the single file that matches, fails on none or several.
the_one() {
    local found=()
    local f
    for f in "$@"; do
        [ -e "$f" ] && found+=("$f")
    done
    [ ${#found[@]} -eq 1 ] || fail "expected exactly one file matching $*, found ${#found[@]}: ${found[*]:-none}"
    printf '%s\n' "${found[0]}"
}

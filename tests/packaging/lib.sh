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
need() {
    command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed (Debian package $2; ./dev deps installs it)"
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

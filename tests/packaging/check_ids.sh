#!/usr/bin/env bash
# check_ids.sh SOURCE_DIR APP_ID VERSION HAS_GUI: one reverse-DNS id names the desktop file,
# the metainfo, its launchable, the icon and the macOS bundle; the metainfo has a release entry
# for this version; every file the metadata names exists.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
src=$1
id=$2
version=$3
has_gui=$4
res=$src/resources
desktop=$res/$id.desktop
metainfo=$res/$id.metainfo.xml
svg=$res/$id.svg
plist=$src/packaging/macos/Info.plist.in

for f in "$desktop" "$metainfo" "$svg" "$plist"; do
    [ -f "$f" ] || fail "$f is missing"
done

# desktop file: the icon and the program
grep -qx "Icon=$id" "$desktop" || fail "$desktop: Icon= must be $id"
exec_prog=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$desktop")
[ "$exec_prog" = joulebench ] || fail "$desktop: Exec= runs '$exec_prog', expected joulebench"

# metainfo: id, launchable, the binaries it provides, the release of this version
grep -q "<id>$id</id>" "$metainfo" || fail "$metainfo: <id> must be $id"
grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$metainfo" ||
    fail "$metainfo: the launchable must be $id.desktop"
grep -q "<binary>joulebench</binary>" "$metainfo" || fail "$metainfo: must provide the binary joulebench"
grep -q "<release version=\"$version\"" "$metainfo" ||
    fail "$metainfo: no <release version=\"$version\"> entry for the project's version $version"
grep -q '<screenshot type="default">' "$metainfo" || fail "$metainfo: no default screenshot"

# macOS bundle: the same id, and the icon that packaging/ makes
grep -q "<string>$id</string>" "$plist" || fail "$plist: CFBundleIdentifier must be $id"
grep -q "<string>JouleBench.icns</string>" "$plist" || fail "$plist: CFBundleIconFile must be JouleBench.icns"

# Screenshots live in this repository (docs/screenshots/, made by ./dev screenshot); the URL
# is where the main branch publishes them.
prefix=https://raw.githubusercontent.com/joulebench/joulebench/main/
urls=$(sed -n 's|.*<image[^>]*>\([^<]*\)</image>.*|\1|p' "$metainfo")
[ -n "$urls" ] || fail "$metainfo: no screenshot image"
for url in $urls; do
    case "$url" in
    "$prefix"*) ;;
    *) fail "$metainfo: screenshot $url is not under $prefix (a file of this repository)" ;;
    esac
    path=${url#"$prefix"}
    if [ ! -f "$src/$path" ]; then
        if [ "$has_gui" = 1 ]; then
            fail "$metainfo names the screenshot $path, which does not exist: run ./dev screenshot and commit it"
        fi
        echo "note: $path does not exist yet; the dashboard is not built here, so it cannot be made"
    fi
done
echo "ok: $id names the desktop file, the metainfo, its launchable, the icon and the bundle"

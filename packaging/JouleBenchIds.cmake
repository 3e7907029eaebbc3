# Names shared by packaging/ and tests/packaging/ (one place, so the tests check what ships).
# One reverse-DNS id names the desktop file, the metainfo, its launchable and the icons.
set(JB_APP_ID io.github.joulebench.JouleBench)
# hicolor sizes rendered from resources/${JB_APP_ID}.svg at build time.
set(JB_ICON_SIZES 16 22 24 32 48 64 128 256 512)
if(APPLE)
  list(APPEND JB_ICON_SIZES 1024)  # the .icns wants 512@2x
endif()
# The group that the udev rule lets read the RAPL counters (packaging/linux/*).
set(JB_RAPL_GROUP joulebench)

# Project-wide helpers. Everything is target-scoped: no global include_directories or flags.

# Warnings and Qt safety defines, linked by every target of the project.
add_library(jb_build_flags INTERFACE)
target_compile_options(jb_build_flags INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-Wall -Wextra -Wpedantic>
  $<$<AND:$<BOOL:${JB_WERROR}>,$<CXX_COMPILER_ID:GNU,Clang,AppleClang>>:-Werror>)
target_compile_definitions(jb_build_flags INTERFACE
  QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_URL_CAST_FROM_STRING QT_NO_FOREACH
  QT_USE_QSTRINGBUILDER)

# Core's headers are included as <jb/ROOM/File.h> (<jb/noise/Allan.h>), so a path names its
# layer: ui's and the tests' own headers stay quoted and relative to their folders
# ("noise/NoiseLabPage.h" is ui/noise). The build tree's include/jb is a link to core/; core/ itself
# is on no include path.
set(JB_INCLUDE_ROOT ${PROJECT_BINARY_DIR}/include)
file(MAKE_DIRECTORY ${JB_INCLUDE_ROOT})
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/core ${JB_INCLUDE_ROOT}/jb RESULT jb_link_result SYMBOLIC)
if(NOT jb_link_result EQUAL 0)
  message(FATAL_ERROR "cannot link ${JB_INCLUDE_ROOT}/jb to ${PROJECT_SOURCE_DIR}/core: ${jb_link_result}")
endif()

# jb_add_core_lib(NAME SOURCES ... [DEPS ...]): one static library per room of core/.
# Rooms link Qt6::Core and nlohmann_json only (plus each other).
function(jb_add_core_lib name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${JB_INCLUDE_ROOT})
  target_link_libraries(${name} PUBLIC Qt6::Core nlohmann_json::nlohmann_json Threads::Threads ${ARG_DEPS}
                                PRIVATE jb_build_flags)
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

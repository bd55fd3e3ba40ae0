# Run as a ctest script (cmake -DBUILD=… -DSOURCE=… -P run_installed.cmake):
# installs the build into a fresh prefix outside both the build and the source
# folders, checks that vitviz-cli carries no path to the assets of either, and
# runs it from another folder on the built-in digits model and its sample.
string(RANDOM LENGTH 8 tag)
set(tmp_root $ENV{TMPDIR})
if(NOT tmp_root)
  set(tmp_root /tmp)
endif()
set(prefix ${tmp_root}/vitviz-installed-${tag})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix} RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
set(cli ${prefix}/bin/vitviz-cli)
file(STRINGS ${cli} source_paths REGEX "${SOURCE}/assets")
file(STRINGS ${cli} build_paths REGEX "${BUILD}/share")
if(source_paths OR build_paths)
  file(REMOVE_RECURSE ${prefix})
  message(FATAL_ERROR "vitviz-cli has the path of an assets folder compiled in: ${source_paths} ${build_paths}")
endif()
execute_process(COMMAND ${cli} --model digits --top 1 WORKING_DIRECTORY ${tmp_root}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(REMOVE_RECURSE ${prefix})
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the installed vitviz-cli did not open digits (${rc}): ${err}")
endif()
message(STATUS "installed vitviz-cli --model digits: ${out}")

# One check of the app as a user runs it, under Xvfb: `vitviz ARGS` saves a tour
# (with ENV set) or a hand-out into DIR; with PAGE (a hand-out), headless Chromium then dumps
# the page's DOM once it has loaded (its script marks each picture with its
# decoded width and the body its background) into PAGE.dom.html; then app_tests
# "[CHECK]" checks what was saved, with VITVIZ_TOUR_DIR=DIR, VITVIZ_HANDOUT_DOM
# and VITVIZ_HANDOUT_PAGE (with PAGE) and ENV set.
# With MIN_COVERAGE, the tour's average picture coverage (printed by vitviz) must reach that percentage.
# -DXVFB_RUN= -DVITVIZ= -DAPP_TESTS= -DDIR= -DARGS= -DCHECK= [-DENV=] [-DMIN_COVERAGE=] [-DCHROMIUM= -DPAGE=]
# (ARGS and ENV: lists joined by '|')
string(REPLACE "|" ";" ARGS "${ARGS}")
string(REPLACE "|" ";" ENV "${ENV}")
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
string(REPLACE ";" " " shown "${ARGS}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ENV} "${XVFB_RUN}" -a -s "-screen 0 1600x1000x24" "${VITVIZ}" ${ARGS}
                RESULT_VARIABLE rc
                OUTPUT_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vitviz ${shown} exited with ${rc}")
endif()
if(MIN_COVERAGE)  # the tour's mean share of the window covered by pictures, at least MIN_COVERAGE percent
  if(NOT out MATCHES "pictures cover ([0-9.]+)% of the window on average")
    message(FATAL_ERROR "vitviz ${shown} printed no average picture coverage")
  endif()
  if(CMAKE_MATCH_1 LESS MIN_COVERAGE)
    message(FATAL_ERROR "pictures cover ${CMAKE_MATCH_1}% of the window on average, less than ${MIN_COVERAGE}%")
  endif()
endif()
set(env "VITVIZ_TOUR_DIR=${DIR}" ${ENV})
if(PAGE)
  file(SIZE "${PAGE}" bytes)
  message(STATUS "${PAGE}: ${bytes} bytes")
  execute_process(COMMAND "${CHROMIUM}" --headless --no-sandbox --disable-gpu --virtual-time-budget=10000
                          --user-data-dir=${DIR}/chromium-profile --dump-dom "file://${PAGE}"
                  OUTPUT_FILE "${PAGE}.dom.html" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "chromium could not open ${PAGE} (${rc})")
  endif()
  list(APPEND env "VITVIZ_HANDOUT_DOM=${PAGE}.dom.html" "VITVIZ_HANDOUT_PAGE=${PAGE}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env ${env} "${APP_TESTS}" "[${CHECK}]" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "app_tests [${CHECK}] failed on what `vitviz ${shown}` saved in ${DIR}")
endif()

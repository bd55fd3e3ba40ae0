# A built-in lesson's hand-out opened in headless Chromium: `vitviz --lesson
# FILE --handout DIR/NAME.html` under Xvfb, Chromium dumps the page's DOM once
# it has loaded (its script marks each picture with its decoded width), then
# app_tests "[.handout]" checks every step's picture and text in that DOM.
# -DXVFB_RUN= -DVITVIZ= -DAPP_TESTS= -DCHROMIUM= -DDIR= -DLESSON=
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
get_filename_component(name "${LESSON}" NAME_WE)
set(html "${DIR}/${name}.html")
execute_process(COMMAND "${XVFB_RUN}" -a -s "-screen 0 1600x1000x24" "${VITVIZ}" --lesson "${LESSON}" --handout "${html}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vitviz --lesson ${LESSON} --handout exited with ${rc}")
endif()
file(SIZE "${html}" bytes)
message(STATUS "${html}: ${bytes} bytes")
execute_process(COMMAND "${CHROMIUM}" --headless --no-sandbox --disable-gpu --virtual-time-budget=10000
                        --user-data-dir=${DIR}/chromium-profile --dump-dom "file://${html}"
                OUTPUT_FILE "${DIR}/${name}.dom.html" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "chromium could not open ${html} (${rc})")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "VITVIZ_LESSON=${LESSON}" "VITVIZ_HANDOUT_DOM=${DIR}/${name}.dom.html"
                        "${APP_TESTS}" "[.handout]"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the hand-out ${html} did not render in Chromium as expected")
endif()

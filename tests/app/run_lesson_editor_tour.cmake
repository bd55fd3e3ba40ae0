# The lesson editor's tour test: `vitviz --lesson LESSON --edit-lesson --tour DIR`
# under Xvfb, then app_tests "[.lesson_editor_tour]" checks its screenshots.
# -DXVFB_RUN= -DVITVIZ= -DAPP_TESTS= -DDIR= -DLESSON=
file(REMOVE_RECURSE "${DIR}")
execute_process(COMMAND "${XVFB_RUN}" -a -s "-screen 0 1600x1000x24" "${VITVIZ}" --lesson "${LESSON}" --edit-lesson --tour "${DIR}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vitviz --lesson --edit-lesson --tour exited with ${rc}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "VITVIZ_TOUR_DIR=${DIR}" "${APP_TESTS}" "[.lesson_editor_tour]"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lesson editor tour screenshots in ${DIR} failed the check")
endif()

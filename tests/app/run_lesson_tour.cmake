# A built-in lesson played end to end: `vitviz --lesson FILE --tour DIR` under
# Xvfb, then app_tests "[.lesson_tour]" checks one non-blank DIR/NN-step.png per step.
# -DXVFB_RUN= -DVITVIZ= -DAPP_TESTS= -DDIR= -DLESSON=
file(REMOVE_RECURSE "${DIR}")
execute_process(COMMAND "${XVFB_RUN}" -a -s "-screen 0 1600x1000x24" "${VITVIZ}" --lesson "${LESSON}" --tour "${DIR}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vitviz --lesson ${LESSON} --tour exited with ${rc}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "VITVIZ_TOUR_DIR=${DIR}" "VITVIZ_LESSON=${LESSON}"
                        "${APP_TESTS}" "[.lesson_tour]"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the screenshots of ${LESSON} in ${DIR} failed the check")
endif()

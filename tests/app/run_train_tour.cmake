# The Train window's tour test: `vitviz --train --train-epochs 1 --tour DIR`
# under Xvfb, then app_tests "[.train_tour]" checks its three screenshots.
# -DXVFB_RUN= -DVITVIZ= -DAPP_TESTS= -DDIR=
file(REMOVE_RECURSE "${DIR}")
execute_process(COMMAND "${XVFB_RUN}" -a -s "-screen 0 1600x1000x24" "${VITVIZ}" --train --train-epochs 1 --tour "${DIR}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vitviz --train --tour exited with ${rc}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "VITVIZ_TOUR_DIR=${DIR}" "${APP_TESTS}" "[.train_tour]"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "train tour screenshots in ${DIR} failed the check")
endif()

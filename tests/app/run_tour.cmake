# The tour test: run `vitviz --tour` under Xvfb, then check every screenshot
# (app_tests "[.tour]": each stage's NN-<stage id>.png exists and is not blank).
# -DXVFB_RUN= -DVITVIZ= -DAPP_TESTS= -DDIR= -DMODEL= [-DIMAGE=] [-DEXTRA=] [-DASK=1: EXTRA asks the model]
file(REMOVE_RECURSE "${DIR}")
set(args --model "${MODEL}" --tour "${DIR}" --select-token 2)
if(IMAGE)
  list(APPEND args --image "${IMAGE}")
endif()
if(EXTRA)
  list(APPEND args ${EXTRA})
endif()
execute_process(COMMAND "${XVFB_RUN}" -a -s "-screen 0 1600x1000x24" "${VITVIZ}" ${args}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vitviz --tour exited with ${rc}")
endif()
set(ask_env)
if(ASK)
  set(ask_env "VITVIZ_TOUR_ASK=1")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "VITVIZ_TOUR_DIR=${DIR}" "VITVIZ_TOUR_MODEL=${MODEL}" ${ask_env}
                        "${APP_TESTS}" "[.tour]"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tour screenshots in ${DIR} failed the check")
endif()

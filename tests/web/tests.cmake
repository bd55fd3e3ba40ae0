# The core's tests compiled to WebAssembly and run under node (tools/web.sh
# --test): the same claims and tolerances as the native core_tests, reading the
# fixtures from the real file system (NODERAWFS). What needs another process
# (vitviz-cli, the PyTorch reference script) has no place in a page and is left
# out by name in tests/web/run_core_tests.sh.
file(GLOB CORE_TEST_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/core/*.cpp)
add_executable(core_tests ${CORE_TEST_SOURCES} ${PROJECT_SOURCE_DIR}/tests/catch_main.cpp)
target_link_libraries(core_tests PRIVATE vitcore Catch2::Catch2)
target_compile_definitions(core_tests PRIVATE VITVIZ_FIXTURES="${PROJECT_SOURCE_DIR}/tests/fixtures" VITVIZ_CLI=""
                                              VITVIZ_VITREF_STAGES="${PROJECT_SOURCE_DIR}/tests/vitref_stages.py")
target_link_options(core_tests PRIVATE -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sEXIT_RUNTIME=1
                                       -sENVIRONMENT=node)

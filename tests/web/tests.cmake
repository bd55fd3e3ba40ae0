# The core's tests compiled to WebAssembly and run under node (tools/web.sh
# --test): the same claims and tolerances as the native core_tests, reading the
# fixtures from the real file system (NODERAWFS). What needs another process
# (vitviz-cli, the PyTorch reference script) has no place in a page and is left
# out by name in tests/web/run_core_tests.sh.
file(GLOB_RECURSE CORE_TEST_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/core/*.cpp)
add_executable(core_tests ${CORE_TEST_SOURCES} ${PROJECT_SOURCE_DIR}/tests/catch_main.cpp)
target_link_libraries(core_tests PRIVATE vitcore Catch2::Catch2 ZLIB::ZLIB)
target_include_directories(core_tests PRIVATE ${PROJECT_SOURCE_DIR}/tests ${PROJECT_SOURCE_DIR}/tests/core)
if(Catch2_VERSION VERSION_GREATER_EQUAL 3)  # Catch2 2's <catch2/catch.hpp> over Catch2 3 (app/web/web_deps.cmake)
  target_include_directories(core_tests PRIVATE ${PROJECT_SOURCE_DIR}/tests/catch2-v3)
endif()
target_compile_definitions(core_tests PRIVATE VITVIZ_FIXTURES="${PROJECT_SOURCE_DIR}/tests/fixtures" VITVIZ_CLI=""
                                              VITVIZ_VITREF_STAGES="${PROJECT_SOURCE_DIR}/tests/vitref_stages.py")
target_link_options(core_tests PRIVATE -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sEXIT_RUNTIME=1
                                       -sENVIRONMENT=node)

# The core's side of the page benchmark (tools/web.sh --bench): a module the
# benchmark's page loads from build-web/bench, with the digits model preloaded.
add_executable(web_bench ${PROJECT_SOURCE_DIR}/tests/web/bench_pass.cpp)
target_link_libraries(web_bench PRIVATE vitcore)
set_target_properties(web_bench PROPERTIES OUTPUT_NAME bench_pass RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
set(DIGITS ${PROJECT_SOURCE_DIR}/assets/digits)
target_link_options(web_bench PRIVATE -sMODULARIZE=1 -sEXPORT_NAME=VitvizBench -sENVIRONMENT=web -sALLOW_MEMORY_GROWTH=1
                                      -sEXPORTED_RUNTIME_METHODS=[ccall]
                                      "SHELL:--preload-file ${DIGITS}/config.json@/share/vitviz/assets/digits/config.json"
                                      "SHELL:--preload-file ${DIGITS}/model.safetensors@/share/vitviz/assets/digits/model.safetensors")

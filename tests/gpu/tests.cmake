# GPU tests (included by tests/CMakeLists.txt): one Catch2 binary run by ctest
# under xvfb-run, so that Mesa's llvmpipe gives it OpenGL 4.5 with no screen and
# no GPU. Every GPU stage is compared with the CPU core's.
file(GLOB GPU_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
add_executable(gpu_tests ${GPU_TEST_SOURCES} $<TARGET_OBJECTS:catch_main>)
target_link_libraries(gpu_tests PRIVATE vitgpu Catch2::Catch2)
target_compile_definitions(gpu_tests PRIVATE VITVIZ_FIXTURES="${CMAKE_CURRENT_SOURCE_DIR}/fixtures")

find_program(XVFB_RUN xvfb-run)
if(XVFB_RUN)
  add_test(NAME gpu_tests COMMAND ${XVFB_RUN} -a -s "-screen 0 640x480x24" $<TARGET_FILE:gpu_tests>)
else()
  add_test(NAME gpu_tests COMMAND gpu_tests)  # needs a display with OpenGL 4.3
endif()
set_tests_properties(gpu_tests PROPERTIES LABELS gpu TIMEOUT 900)

# The CLI's --backend gpu gives the CPU's toy-4x4 prediction (0.456430 class 0).
if(XVFB_RUN)
  add_test(NAME cli_gpu_backend_predicts_like_the_cpu
           COMMAND ${XVFB_RUN} -a $<TARGET_FILE:vitviz-cli> --model toy-4x4 --backend gpu --top 1)
  set_tests_properties(cli_gpu_backend_predicts_like_the_cpu PROPERTIES PASS_REGULAR_EXPRESSION "^0\\.4564[0-9]+ class 0")
endif()

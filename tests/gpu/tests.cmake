# GPU tests (included by tests/CMakeLists.txt): one Catch2 binary run by ctest
# with no display, so that its context comes from EGL (gpu/gl_context.h: Mesa's
# llvmpipe gives OpenGL 4.5 with no screen and no GPU). Every GPU stage is
# compared with the CPU core's.
file(GLOB GPU_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
add_executable(gpu_tests ${GPU_TEST_SOURCES} $<TARGET_OBJECTS:catch_main>)
target_link_libraries(gpu_tests PRIVATE vitgpu Catch2::Catch2)
target_compile_definitions(gpu_tests PRIVATE VITVIZ_FIXTURES="${CMAKE_CURRENT_SOURCE_DIR}/fixtures")

add_test(NAME gpu_tests COMMAND env -u DISPLAY -u WAYLAND_DISPLAY $<TARGET_FILE:gpu_tests>)
set_tests_properties(gpu_tests PROPERTIES LABELS gpu TIMEOUT 900)

# The CLI's --backend gpu with no display gives the CPU's toy-4x4 prediction (0.456430 class 0)
# and says which device and driver it got, through EGL.
add_test(NAME cli_gpu_backend_with_no_display_predicts_like_the_cpu
         COMMAND env -u DISPLAY -u WAYLAND_DISPLAY $<TARGET_FILE:vitviz-cli> --model toy-4x4 --backend gpu --top 1)
set_tests_properties(cli_gpu_backend_with_no_display_predicts_like_the_cpu PROPERTIES
                     PASS_REGULAR_EXPRESSION "GPU: [^\n]*OpenGL 4[^\n]*, through EGL[^\n]*\n0\\.4564[0-9]+ class 0")

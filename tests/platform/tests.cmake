# tests/platform: the app's platform parts that need no window (its fonts, with
# Dear ImGui's font atlas built in memory).
add_executable(platform_tests ${CMAKE_CURRENT_LIST_DIR}/test_fonts.cpp ${PROJECT_SOURCE_DIR}/app/gui/platform/fonts.cpp
               $<TARGET_OBJECTS:catch_main>)
target_include_directories(platform_tests PRIVATE ${PROJECT_SOURCE_DIR}/app/gui)
target_link_libraries(platform_tests PRIVATE PkgConfig::IMGUI Catch2::Catch2)
target_compile_definitions(platform_tests PRIVATE VITVIZ_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
catch_discover_tests(platform_tests EXTRA_ARGS ${CATCH_WARN_NO_TESTS})

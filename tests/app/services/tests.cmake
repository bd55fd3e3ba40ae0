# tests/app/services: the app's services that need no window (its fonts, with
# Dear ImGui's font atlas built in memory).
add_executable(services_tests ${CMAKE_CURRENT_LIST_DIR}/test_fonts.cpp ${PROJECT_SOURCE_DIR}/app/gui/services/fonts.cpp
               $<TARGET_OBJECTS:catch_main>)
target_include_directories(services_tests PRIVATE ${PROJECT_SOURCE_DIR}/app/gui)
target_link_libraries(services_tests PRIVATE PkgConfig::IMGUI Catch2::Catch2)
target_compile_definitions(services_tests PRIVATE VITVIZ_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
catch_discover_tests(services_tests EXTRA_ARGS ${CATCH_WARN_NO_TESTS})
